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
  }

  private Native() {}

  // Object stores: short-lived handles, freed once the open that used them returns.
  static native long storeMemory(String name);

  static native boolean storeMemoryDrop(String name);

  static native long storeLocal(String directory);

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
      boolean tagExtractor);

  static native void dbClose(long db);

  static native void dbFree(long db);

  static native byte[] dbGet(long db, byte[] key);

  static native long dbScan(long db, byte[] start, byte[] end, boolean descending);

  static native long dbWrite(long db, byte[] encodedBatch);

  static native long dbBegin(long db);

  static native long dbSnapshot(long db);

  static native void dbFlushWal(long db);

  static native boolean dbAwaitDurable(long db, long seqnum, long timeoutMillis);

  static native long dbDurableSeq(long db);

  /** Returns {@code [uuid msb, uuid lsb, manifest id]}. */
  static native long[] dbCheckpoint(long db, long lifetimeMillis);

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
      boolean tagExtractor);

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

  /** {@code which}: 0 PUTs, 1 GETs (successful, filtered by fragment), 2/3 injected failures. */
  static native long faultCount(long injector, int which, String pathFragment);

  static native void faultReset(long injector);
}
