package dev.moraine.store;

/**
 * The JNI entry points of {@code moraine-store/native}. Every method may throw the {@code
 * dev.moraine.core.kv} exception its failure maps to; none ever crashes the process.
 *
 * <p>Handles are native addresses owned by the Java object that received them. Callers must hold
 * the handle's {@link NativeHandle} guard for the whole call; each {@code *Free} is called exactly
 * once, by the guard.
 *
 * <p>Conventions: a negative duration in milliseconds means "none" (timer off, no timeout, no
 * lifetime, unbounded retries); a null range bound is unbounded; a null fragment matches every
 * path.
 */
final class Native {
  static {
    NativeLibrary.load();
    NativeLog.start();
  }

  private Native() {}

  // Object stores: short-lived handles, freed once the open that used them returns.
  static native long storeMemory(String name);

  static native boolean storeMemoryDrop(String name);

  static native long storeLocal(String directory, boolean fsync);

  // S3: credential mode 0 default chain, 1 anonymous, 2 static keys; timeouts in ms (>= 1).
  static native long storeS3(
      String endpoint,
      String bucket,
      String prefix,
      String region,
      int credentials,
      String accessKey,
      String secretKey,
      String sessionToken,
      boolean allowHttp,
      long connectTimeoutMs,
      long requestTimeoutMs,
      long poolIdleTimeoutMs);

  static native long storeFaulty(long inner, long injector);

  static native void storeFree(long store);

  /**
   * One level of listing under {@code path} in the store, within {@code timeoutMillis} (negative:
   * none): 0 nothing there, 1 a SlateDB database (a {@code manifest} folder), 2 other objects, 3
   * the store's bucket does not exist. Writes nothing.
   */
  static native int storeProbe(long store, String path, long timeoutMillis);

  /**
   * Every object under {@code prefix} (all for an empty one), within {@code timeoutMillis}
   * (negative: none), each as a 4-byte path length, the UTF-8 path, an 8-byte size and an 8-byte
   * last-modified time in epoch milliseconds. Writes nothing.
   */
  static native byte[] storeList(long store, String prefix, long timeoutMillis);

  /** Deletes the object at {@code path}; one that is not there counts as deleted. */
  static native void storeDelete(long store, String path, long timeoutMillis);

  // The writer.
  static native long dbOpen(
      long store,
      String path,
      long walStore,
      long flushIntervalMillis,
      long manifestPollMillis,
      long maxRetries,
      boolean compactor,
      boolean garbageCollector,
      boolean tagExtractor,
      long operationTimeoutMillis,
      long compactorPollMillis,
      long l0SstBytes);

  static native void dbClose(long db);

  static native void dbFree(long db);

  static native byte[] dbGet(long db, byte[] key);

  static native long dbScan(long db, byte[] start, byte[] end, boolean descending);

  static native long dbWrite(long db, byte[] encodedBatch);

  static native long dbBegin(long db);

  static native long dbSnapshot(long db);

  static native void dbFlushWal(long db);

  /** Writes the memtable out as a sorted-string table of the main store. */
  static native void dbFlushMemtable(long db);

  static native boolean dbAwaitDurable(long db, long seqnum, long timeoutMillis);

  static native long dbDurableSeq(long db);

  /** Returns {@code [uuid msb, uuid lsb, manifest id]}. */
  static native long[] dbCheckpoint(long db, long lifetimeMillis);

  /** Deletes the checkpoint with this id from the manifest; one that is not there is no error. */
  static native void dbDeleteCheckpoint(long db, long idMsb, long idLsb);

  // Bounded calls: closes that passed their bound finish in the background.
  /** Close tasks not yet finished, in this process. */
  static native long dbCloseTasksRunning();

  // Readers.
  static native long readerOpen(
      long store,
      String path,
      long walStore,
      boolean pinned,
      long uuidMsb,
      long uuidLsb,
      long pollMillis,
      long maxRetries,
      boolean tagExtractor,
      long operationTimeoutMillis);

  static native byte[] readerGet(long reader, byte[] key);

  static native long readerScan(long reader, byte[] start, byte[] end, boolean descending);

  static native void readerClose(long reader);

  static native void readerFree(long reader);

  // Snapshots.
  static native byte[] snapGet(long snapshot, byte[] key);

  static native long snapScan(long snapshot, byte[] start, byte[] end, boolean descending);

  static native void snapFree(long snapshot);

  // Transactions.
  static native byte[] txnGet(long txn, byte[] key);

  static native long txnScan(long txn, byte[] start, byte[] end, boolean descending);

  static native void txnPut(long txn, byte[] key, byte[] value);

  static native void txnDelete(long txn, byte[] key);

  /** Returns the write's sequence number, or -1 if the transaction wrote nothing. */
  static native long txnCommit(long txn);

  static native void txnFree(long txn);

  // Iterators.
  /** The next run of entries (see {@link WireFormat}), or null when the scan is done. */
  static native byte[] iterNext(long iterator);

  static native void iterFree(long iterator);

  // Fault injection.
  static native long faultNew();

  static native void faultFree(long injector);

  static native void faultFailPuts(
      long injector, long skip, long times, String pathFragment, boolean afterApplying);

  static native void faultFailGets(long injector, long skip, long times, String pathFragment);

  static native void faultLatency(long injector, long putMillis, long getMillis);

  static native void faultHoldPuts(long injector, String pathFragment);

  static native void faultReleasePuts(long injector);

  /**
   * {@code operation}: a {@link FaultInjector.Operation} ordinal; {@code injected}: count injected
   * failures rather than completed operations; the fragment is null or a class fragment.
   */
  static native long faultCount(
      long injector, int operation, boolean injected, String pathFragment);

  // Fault injection: failing LISTs and DELETEs.
  /** {@code operation}: the {@link FaultInjector.Operation} ordinal of LIST or DELETE. */
  static native void faultFailOthers(
      long injector, int operation, long skip, long times, String pathFragment);

  static native void faultReset(long injector);

  // Batch crossings and the durability filter (native module `crossings`). Keys, values and
  // batches use the layouts in WireFormat; `remote` selects SlateDB's durability filter Remote
  // (durable data only) instead of Memory.
  /** The encoded values of the encoded keys (see {@link WireFormat#decodeValues}). */
  static native byte[] dbGetAll(long db, byte[] encodedKeys, boolean remote);

  static native byte[] snapGetAll(long snapshot, byte[] encodedKeys, boolean remote);

  static native byte[] txnGetAll(long txn, byte[] encodedKeys, boolean remote);

  static native byte[] readerGetAll(long reader, byte[] encodedKeys, boolean remote);

  static native long dbScanRemote(long db, byte[] start, byte[] end, boolean descending);

  static native long snapScanRemote(long snapshot, byte[] start, byte[] end, boolean descending);

  static native long txnScanRemote(long txn, byte[] start, byte[] end, boolean descending);

  static native long readerScanRemote(long reader, byte[] start, byte[] end, boolean descending);

  static native void txnPutAll(long txn, byte[] encodedBatch);

  /**
   * Applies the encoded batches in order; fills {@code seqnums[i]} for each batch applied, also
   * when it then throws for a later batch.
   */
  static native void dbWriteAll(long db, byte[] encodedBatches, long[] seqnums);

  // Test hooks (panics at the boundary, text leaving native code); see TestHooks.
  /** Only through {@link TestHooks}: the next call that borrows {@code handle} panics. */
  static native void testPanicOnNextCall(long handle);

  /** Only through {@link TestHooks}: logs {@code text} at warn, then throws it as unavailable. */
  static native void testLogAndFail(String text);

  // Test hook: a panic after submission; see TestHooks.
  /**
   * Only through {@link TestHooks}: the next call that borrows {@code handle} and hands an effect
   * to the store panics right after submitting it.
   */
  static native void testPanicAfterSubmission(long handle);

  // Log bridge: SlateDB's log records, drained by NativeLog's thread.
  /** Installs the bridge; {@code level}: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace. */
  static native void logInit(int level);

  /**
   * Waits up to {@code timeoutMillis} for records and returns a batch ({@code dropped:u64}, then
   * per record {@code level:u8, targetLen:u32, target, messageLen:u32, message}, big-endian,
   * UTF-8), or null if none arrived.
   */
  static native byte[] logPoll(long timeoutMillis);

  // Local store durability (test hook).
  /** How many writes local stores with fsync on acknowledged in this process. */
  static native long storeLocalSyncedWrites();
}
