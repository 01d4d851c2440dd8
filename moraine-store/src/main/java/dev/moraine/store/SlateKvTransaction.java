package dev.moraine.store;

import dev.moraine.core.kv.KvLimits;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.lang.ref.Reference;
import java.util.function.LongFunction;

/**
 * A snapshot-isolation SlateDB transaction ({@code IsolationLevel::Snapshot}): write-write
 * conflicts only, first committer wins. Committing consumes it; afterwards, like after close, every
 * call throws {@code KvClosedException}.
 */
final class SlateKvTransaction extends NativeReadView implements KvTransaction {

  /** Makes the receipt of a commit; the store's own factory, so receipts name the store. */
  private final LongFunction<WriteReceipt> receipts;

  SlateKvTransaction(long address, NativeHandle store, LongFunction<WriteReceipt> receipts) {
    super("transaction", address, Native::txnFree, store);
    this.receipts = receipts;
  }

  @Override
  byte[] nativeGet(long address, byte[] key) {
    return Native.txnGet(address, key);
  }

  @Override
  long nativeScan(long address, byte[] start, byte[] end, boolean descending) {
    return Native.txnScan(address, start, end, descending);
  }

  @Override
  byte[] nativeGetAll(long address, byte[] encodedKeys, boolean remote) {
    return Native.txnGetAll(address, encodedKeys, remote);
  }

  @Override
  long nativeScanRemote(long address, byte[] start, byte[] end, boolean descending) {
    return Native.txnScanRemote(address, start, end, descending);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    KvLimits.checkKey(key);
    KvLimits.checkValue(value);
    long address = handle.enter();
    try {
      Native.txnPut(address, key, value);
    } finally {
      handle.exit();
    }
  }

  @Override
  public void delete(byte[] key) {
    KvLimits.checkKey(key);
    long address = handle.enter();
    try {
      Native.txnDelete(address, key);
    } finally {
      handle.exit();
    }
  }

  // ---------------------------------------------------------------- batch crossing

  @Override
  public void putAll(WriteBatch batch) {
    // Refuses a null or empty batch before anything crosses.
    byte[] encoded = WireFormat.encode(batch);
    long address = handle.enter();
    try {
      Native.txnPutAll(address, encoded);
    } finally {
      handle.exit();
    }
  }

  @Override
  public WriteReceipt commit() {
    long address = handle.enter();
    long seqnum;
    try {
      seqnum = Native.txnCommit(address);
    } finally {
      handle.exit();
      // Whatever the outcome, the transaction is spent.
      close();
    }
    return seqnum < 0 ? null : receipts.apply(seqnum);
  }

  @Override
  public void close() {
    // Freeing an uncommitted native transaction rolls it back.
    if (handle.beginClose()) {
      handle.finishClose();
    }
    // Keeps this reachable until the close has won, so the cleaner cannot take it for abandoned.
    Reference.reachabilityFence(this);
  }
}
