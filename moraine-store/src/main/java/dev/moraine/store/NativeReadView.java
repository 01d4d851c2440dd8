package dev.moraine.store;

import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvLimits;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.ReadDurability;
import dev.moraine.core.kv.ScanOrder;
import java.util.ArrayList;
import java.util.List;
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

  // ------------------------------------------------------- multi-get and durability filter

  /** The native multi-get of this kind of view: encoded keys in, encoded values out. */
  abstract byte[] nativeGetAll(long address, byte[] encodedKeys, boolean remote);

  /** The native scan of durable data only of this kind of view; returns an iterator handle. */
  abstract long nativeScanRemote(long address, byte[] start, byte[] end, boolean descending);

  @Override
  public byte[] get(byte[] key, ReadDurability durability) {
    requireLevel(durability);
    if (durability == ReadDurability.REMOTE) {
      // The filtered point read goes through the multi-get crossing: one call either way.
      return getAll(List.of(checkedKey(key)), durability).get(0);
    }
    return get(key);
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
    requireLevel(durability);
    byte[] encoded = WireFormat.encodeKeys(keys);
    if (keys.isEmpty()) {
      // Nothing to read, but a closed view still says so, as every read does.
      handle.enter();
      handle.exit();
      return new ArrayList<>();
    }
    byte[] values;
    long address = handle.enter();
    try {
      values = nativeGetAll(address, encoded, durability == ReadDurability.REMOTE);
    } finally {
      handle.exit();
    }
    return WireFormat.decodeValues(values, keys.size());
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
    requireLevel(durability);
    if (durability == ReadDurability.MEMORY) {
      return scan(range, order);
    }
    if (range == null || order == null) {
      throw new KvInvalidArgumentException("range and order must not be null");
    }
    long address = handle.enter();
    try {
      long iterator =
          nativeScanRemote(address, range.start(), range.end(), order == ScanOrder.DESCENDING);
      // Created before exit(), as in scan(range, order).
      return new SlateKvIterator(iterator, handle, this);
    } finally {
      handle.exit();
    }
  }

  private static void requireLevel(ReadDurability durability) {
    if (durability == null) {
      throw new KvInvalidArgumentException("durability level must not be null");
    }
  }

  private static byte[] checkedKey(byte[] key) {
    KvLimits.checkKey(key);
    return key;
  }

  // ---------------------------------------------------------------- plain reads (MEMORY)

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
