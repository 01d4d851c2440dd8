package dev.moraine.store;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvInvalidArgumentException;
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
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-write handle: one SlateDB {@code Db}. Thread-safe; every call holds the handle's guard
 * (see {@link NativeHandle}) so that {@link #close()} can race any of them.
 */
final class SlateKvStore extends NativeReadView implements KvStore {
  private static final Logger LOG = LoggerFactory.getLogger(SlateKvStore.class);

  SlateKvStore(long address) {
    super("store", address, Native::dbFree, null);
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

  /** The one place this store makes a receipt for a write it applied. */
  private WriteReceipt receipt(long seqnum) {
    return new WriteReceipt(seqnum);
  }

  @Override
  public KvTransaction begin() {
    long address = handle.enter();
    try {
      return new SlateKvTransaction(Native.dbBegin(address), handle);
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
  public void flushWal() {
    long address = handle.enter();
    try {
      Native.dbFlushWal(address);
    } finally {
      handle.exit();
    }
  }

  @Override
  public void awaitDurable(WriteReceipt receipt) {
    await(receipt, -1);
  }

  @Override
  public boolean awaitDurable(WriteReceipt receipt, Duration timeout) {
    if (timeout == null) {
      throw new KvInvalidArgumentException("timeout must not be null");
    }
    long millis = timeout.isNegative() ? 0 : StoreSettings.millisOrNone(timeout);
    return await(receipt, millis);
  }

  private boolean await(WriteReceipt receipt, long timeoutMillis) {
    if (receipt == null) {
      throw new KvInvalidArgumentException("receipt must not be null");
    }
    // The wait holds the guard; close() does not wait for it but shuts the database down, which
    // wakes this call with a closed error.
    long address = handle.enter();
    try {
      return Native.dbAwaitDurable(address, receipt.seqnum(), timeoutMillis);
    } finally {
      handle.exit();
    }
  }

  @Override
  public long durableSeqnum() {
    long address = handle.enter();
    try {
      return Native.dbDurableSeq(address);
    } finally {
      handle.exit();
    }
  }

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

  /**
   * Closes the database (flushing what is in memory) and releases the handle; the native memory is
   * freed by the last call still in flight, or here if there is none. A fenced store has nothing it
   * may flush, so closing it reports nothing.
   */
  @Override
  public void close() {
    if (!handle.beginClose()) {
      return;
    }
    try {
      Native.dbClose(handle.address());
    } catch (KvFencedException fenced) {
      LOG.debug("closed a fenced store", fenced);
    } finally {
      handle.finishClose();
    }
  }
}
