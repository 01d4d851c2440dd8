package dev.moraine.store;

import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvLimits;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.ScanOrder;
import java.util.function.LongConsumer;

/**
 * Point reads and scans over one native view (writer, reader, snapshot or transaction). Every call
 * holds the view's {@link NativeHandle} for its duration, so a concurrent close cannot free the
 * native object under it.
 */
abstract class NativeReadView implements KvReadView, AutoCloseable {
  /** The guarded native handle of this view. */
  final NativeHandle handle;

  /**
   * Takes ownership of {@code address}. When {@code parent} is given, call this constructor inside
   * the parent call that produced the address (see {@link NativeHandle#owner}); such a view that is
   * never closed is freed by the cleaner once unreachable.
   */
  NativeReadView(String what, long address, LongConsumer free, NativeHandle parent) {
    this.handle = new NativeHandle(what, address, free, parent);
    // Registering `this` with the cleaner before the subclass constructor finishes is safe: the
    // cleaner only tracks its reachability and never calls it; the parent registers only the
    // handle's native cell.
    handle.owner(this);
  }

  /** The native point read of this kind of view. */
  abstract byte[] nativeGet(long address, byte[] key);

  /** The native scan of this kind of view; returns an iterator handle. */
  abstract long nativeScan(long address, byte[] start, byte[] end, boolean descending);

  @Override
  public byte[] get(byte[] key) {
    KvLimits.checkKey(key);
    long address = handle.enter();
    try {
      return nativeGet(address, key);
    } finally {
      handle.exit();
    }
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order) {
    if (range == null || order == null) {
      throw new KvInvalidArgumentException("range and order must not be null");
    }
    long address = handle.enter();
    try {
      long iterator =
          nativeScan(address, range.start(), range.end(), order == ScanOrder.DESCENDING);
      // Created before exit(): the iterator registers with this view while the call still
      // holds it, so a racing close always sees (and closes) it.
      // The iterator also holds this view, so a view no one else references is not cleaned
      // while the scan is in use.
      return new SlateKvIterator(iterator, handle, this);
    } finally {
      handle.exit();
    }
  }

  @Override
  public abstract void close();
}
