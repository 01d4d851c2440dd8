package dev.moraine.store;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvOutcomeUnknownException.Reason;
import dev.moraine.core.kv.KvPartialWriteException;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read-write handle: one SlateDB {@code Db}. Thread-safe; every call holds the handle's guard
 * (see {@link NativeHandle}) so that {@link #close()} can race any of them.
 *
 * <p>Each handle has a process-unique {@link #id}, which every receipt it issues carries; it
 * accepts no other handle's receipt, because a reopened store numbers its writes afresh.
 *
 * <p>Blocking native calls are bounded by the operation timeout (in native code, which also stops
 * at a thread interrupt). {@code awaitDurable} waits here, in native waits of {@link
 * #WAIT_SLICE_MILLIS}, and looks at the deadline and the interrupt flag between them.
 */
final class SlateKvStore extends NativeReadView implements KvStore {
  /** Length of one native wait of {@code awaitDurable}. */
  static final long WAIT_SLICE_MILLIS = 20;

  private static final AtomicLong NEXT_ID = new AtomicLong();

  private final long id = NEXT_ID.incrementAndGet();
  private final Duration operationTimeout;
  private final Optional<Duration> flushTimer;
  private final Optional<String> walStore;
  private final DurabilityWatcher watcher;

  /**
   * The highest durable sequence number this Java object has read from native code; what {@link
   * #durableSeqnum()} answers while a close is under way. Only grows.
   */
  private final AtomicLong knownDurable = new AtomicLong();

  /**
   * Completed by {@link #close()} with the durable sequence number read after the native close
   * returned (successfully or not), before the handle is released. Nothing becomes durable after
   * that, except through a close that passed its bound and finishes in the background.
   */
  private final CompletableFuture<Long> closedDurable = new CompletableFuture<>();

  SlateKvStore(
      long address, Duration operationTimeout, Duration flushTimer, String walStoreLocation) {
    super("store", address, Native::dbFree, null);
    this.operationTimeout = operationTimeout;
    this.flushTimer = Optional.ofNullable(flushTimer);
    this.walStore = Optional.ofNullable(walStoreLocation);
    this.watcher = new DurabilityWatcher(new WatcherSource(), "moraine-durability-" + id);
  }

  /** The one place receipts of this handle are made. */
  private WriteReceipt receipt(long seqnum) {
    return new WriteReceipt(id, seqnum);
  }

  @Override
  byte[] nativeGet(long address, byte[] key) {
    return Native.dbGet(address, key);
  }

  @Override
  long nativeScan(long address, byte[] start, byte[] end, boolean descending) {
    return Native.dbScan(address, start, end, descending);
  }

  @Override
  byte[] nativeGetAll(long address, byte[] encodedKeys, boolean remote) {
    return Native.dbGetAll(address, encodedKeys, remote);
  }

  @Override
  long nativeScanRemote(long address, byte[] start, byte[] end, boolean descending) {
    return Native.dbScanRemote(address, start, end, descending);
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    byte[] encoded = WireFormat.encode(batch);
    long address = handle.enter();
    try {
      return receipt(Native.dbWrite(address, encoded));
    } finally {
      handle.exit();
    }
  }

  // ---------------------------------------------------------------- batch crossing

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    byte[] encoded = WireFormat.encodeBatches(batches);
    long[] seqnums = new long[batches.size()];
    Arrays.fill(seqnums, -1);
    long address = handle.enter();
    try {
      Native.dbWriteAll(address, encoded, seqnums);
    } catch (KvException failure) {
      // The native side fills the slot of every batch it applied before the failure, in order,
      // and stops at the failing batch: the filled slots are exactly the applied batches.
      List<WriteReceipt> applied = receipts(seqnums);
      if (applied.isEmpty()) {
        throw failure;
      }
      throw new KvPartialWriteException(applied, failure);
    } finally {
      handle.exit();
    }
    return receipts(seqnums);
  }

  /** The receipts of the leading filled slots (a sequence number is never negative). */
  private List<WriteReceipt> receipts(long[] seqnums) {
    List<WriteReceipt> receipts = new ArrayList<>(seqnums.length);
    for (long seqnum : seqnums) {
      if (seqnum < 0) {
        break;
      }
      receipts.add(receipt(seqnum));
    }
    return receipts;
  }

  @Override
  public KvTransaction begin() {
    long address = handle.enter();
    try {
      return new SlateKvTransaction(Native.dbBegin(address), handle, this::receipt);
    } finally {
      handle.exit();
    }
  }

  @Override
  public KvSnapshot snapshot() {
    long address = handle.enter();
    try {
      return new SlateKvSnapshot(Native.dbSnapshot(address), handle);
    } finally {
      handle.exit();
    }
  }

  @Override
  public Optional<Duration> flushTimer() {
    return flushTimer;
  }

  @Override
  public Optional<String> walStore() {
    return walStore;
  }

  @Override
  public void flushMemtable() {
    long address = handle.enter();
    try {
      Native.dbFlushMemtable(address);
    } finally {
      handle.exit();
    }
  }

  @Override
  public void flushWal() {
    long address = handle.enter();
    try {
      Native.dbFlushWal(address);
    } finally {
      handle.exit();
    }
  }

  // ------------------------------------------------------------------ durability

  @Override
  public void awaitDurable(WriteReceipt receipt) {
    long seqnum = ownSeqnum(receipt);
    if (!await(seqnum, operationTimeout.toNanos())) {
      throw new KvOutcomeUnknownException(
          Reason.TIMEOUT,
          "write "
              + seqnum
              + " was not durable within the operation timeout of "
              + operationTimeout.toMillis()
              + " ms");
    }
  }

  @Override
  public boolean awaitDurable(WriteReceipt receipt, Duration timeout) {
    long seqnum = ownSeqnum(receipt);
    if (timeout == null) {
      throw new KvInvalidArgumentException("timeout must not be null");
    }
    long nanos;
    try {
      nanos = timeout.isNegative() ? 0 : timeout.toNanos();
    } catch (ArithmeticException tooLong) {
      nanos = Long.MAX_VALUE / 2;
    }
    return await(seqnum, nanos);
  }

  @Override
  public CompletableFuture<Void> durableFuture(WriteReceipt receipt) {
    return watcher.add(ownSeqnum(receipt));
  }

  /**
   * Waits in native slices until {@code seqnum} is durable (true) or {@code timeoutNanos} passed
   * (false). Holds the guard for the whole wait: the address stays valid, and a close does not wait
   * for this call but makes the native wait return (durable, or an unknown outcome).
   */
  private boolean await(long seqnum, long timeoutNanos) {
    long deadline = System.nanoTime() + Math.min(timeoutNanos, Long.MAX_VALUE / 4);
    long address;
    try {
      address = handle.enter();
    } catch (KvClosedException closed) {
      return awaitAfterClose(seqnum, deadline, closed);
    }
    try {
      while (true) {
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        long slice = Math.max(0, Math.min(WAIT_SLICE_MILLIS, leftMillis));
        if (Native.dbAwaitDurable(address, seqnum, slice)) {
          noteDurable(seqnum);
          return true;
        }
        if (Thread.currentThread().isInterrupted()) {
          throw interrupted(seqnum);
        }
        if (deadline - System.nanoTime() <= 0) {
          return false;
        }
      }
    } finally {
      handle.exit();
    }
  }

  /**
   * The wait of a call that found the handle closed: the answer is the durable sequence number
   * after the close, once the close has finished (it is bounded by the operation timeout).
   */
  private boolean awaitAfterClose(long seqnum, long deadline, KvClosedException closed) {
    long finalDurable;
    try {
      finalDurable =
          closedDurable.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException stillClosing) {
      return false;
    } catch (InterruptedException interrupt) {
      Thread.currentThread().interrupt();
      throw interrupted(seqnum);
    } catch (ExecutionException impossible) {
      throw new IllegalStateException(impossible);
    }
    if (finalDurable >= seqnum) {
      return true;
    }
    throw new KvOutcomeUnknownException(
        Reason.CLOSED, "the store closed before write " + seqnum + " became durable", closed);
  }

  private static KvOutcomeUnknownException interrupted(long seqnum) {
    return new KvOutcomeUnknownException(
        Reason.INTERRUPTED, "interrupted while waiting for write " + seqnum + " to become durable");
  }

  /** The receipt's sequence number, if this handle issued it. */
  private long ownSeqnum(WriteReceipt receipt) {
    if (receipt == null) {
      throw new KvInvalidArgumentException("receipt must not be null");
    }
    if (receipt.storeId() != id) {
      throw new KvInvalidArgumentException(
          "the receipt was issued by another store handle ("
              + receipt.storeId()
              + ", this is "
              + id
              + "); its sequence number means nothing here");
    }
    return receipt.seqnum();
  }

  @Override
  public long durableSeqnum() {
    long address;
    try {
      address = handle.enter();
    } catch (KvClosedException closed) {
      return closedDurable.getNow(knownDurable.get());
    }
    try {
      return noteDurable(Native.dbDurableSeq(address));
    } finally {
      handle.exit();
    }
  }

  private long noteDurable(long seqnum) {
    return knownDurable.accumulateAndGet(seqnum, Math::max);
  }

  /** Outstanding durability futures, for tests. */
  int pendingDurableFutures() {
    return watcher.pendingCount();
  }

  /** The store as the durability watcher sees it. */
  private final class WatcherSource implements DurabilityWatcher.Source {
    @Override
    public long awaitDurableAbove(long seen, long sliceMillis) {
      long address = handle.enter();
      try {
        Native.dbAwaitDurable(address, seen + 1, sliceMillis);
        return noteDurable(Native.dbDurableSeq(address));
      } finally {
        handle.exit();
      }
    }

    @Override
    public long finalDurableSeqnum() {
      long address;
      try {
        address = handle.enter();
      } catch (KvClosedException closed) {
        // close() completes this after its bounded native close, before it releases the handle.
        return closedDurable.join();
      }
      try {
        return noteDurable(Native.dbDurableSeq(address));
      } finally {
        handle.exit();
      }
    }
  }

  // ------------------------------------------------------------------ checkpoints and close

  @Override
  public CheckpointId createCheckpoint(Duration lifetime) {
    if (lifetime != null && (lifetime.isNegative() || lifetime.isZero())) {
      throw new KvInvalidArgumentException("checkpoint lifetime must be positive");
    }
    long address = handle.enter();
    long[] parts;
    try {
      parts = Native.dbCheckpoint(address, StoreSettings.millisOrNone(lifetime));
    } finally {
      handle.exit();
    }
    return new CheckpointId(new UUID(parts[0], parts[1]), parts[2]);
  }

  @Override
  public void deleteCheckpoint(CheckpointId checkpoint) {
    if (checkpoint == null) {
      throw new KvInvalidArgumentException("checkpoint must not be null");
    }
    long address = handle.enter();
    try {
      Native.dbDeleteCheckpoint(
          address,
          checkpoint.id().getMostSignificantBits(),
          checkpoint.id().getLeastSignificantBits());
    } finally {
      handle.exit();
    }
  }

  /**
   * Closes the database (flushing what is in memory, within the operation timeout) and releases the
   * handle; the native memory is freed by the last call still in flight, or here if there is none.
   * Before the release it records the final durable sequence number, so {@link #durableSeqnum()},
   * waiters and durability futures can still be answered afterwards.
   */
  @Override
  public void close() {
    if (!handle.beginClose()) {
      return;
    }
    long address = handle.address();
    try {
      Native.dbClose(address);
    } finally {
      // The closer still counts as a call in flight, so the address is valid here.
      long last;
      try {
        last = noteDurable(Native.dbDurableSeq(address));
      } catch (RuntimeException unreadable) {
        last = knownDurable.get();
      }
      closedDurable.complete(last);
      handle.finishClose();
      watcher.storeClosed();
    }
  }
}
