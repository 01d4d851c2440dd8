package dev.moraine.store;

import dev.moraine.core.kv.KvSnapshot;
import java.lang.ref.Reference;

/** A frozen view of a SlateDB writer: {@code Db::snapshot}. */
final class SlateKvSnapshot extends NativeReadView implements KvSnapshot {

  SlateKvSnapshot(long address, NativeHandle store) {
    super("snapshot", address, Native::snapFree, store);
  }

  @Override
  byte[] nativeGet(long address, byte[] key) {
    return Native.snapGet(address, key);
  }

  @Override
  long nativeScan(long address, byte[] start, byte[] end, boolean descending) {
    return Native.snapScan(address, start, end, descending);
  }

  @Override
  byte[] nativeGetAll(long address, byte[] encodedKeys, boolean remote) {
    return Native.snapGetAll(address, encodedKeys, remote);
  }

  @Override
  long nativeScanRemote(long address, byte[] start, byte[] end, boolean descending) {
    return Native.snapScanRemote(address, start, end, descending);
  }

  @Override
  public void close() {
    if (handle.beginClose()) {
      handle.finishClose();
    }
    // Keeps this reachable until the close has won, so the cleaner cannot take it for abandoned.
    Reference.reachabilityFence(this);
  }
}
