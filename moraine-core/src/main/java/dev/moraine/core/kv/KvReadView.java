package dev.moraine.core.kv;

/**
 * Point and range reads. What a view sees depends on what it is: the latest state of a store, a
 * frozen snapshot, or a transaction (its snapshot plus its own uncommitted writes).
 *
 * <p>All methods are safe to call from several threads at once unless the implementing type says
 * otherwise. Every method throws {@link KvClosedException} once the view (or the store it belongs
 * to) is closed, {@link KvUnavailableException} when the object store fails, and {@link
 * KvDataException} for corrupt or missing data. A read never changes stored state.
 */
public interface KvReadView {

  /**
   * The value of {@code key}, or null if it has none.
   *
   * @throws KvInvalidArgumentException for an empty or oversized key
   */
  byte[] get(byte[] key);

  /** Every entry in {@code range}, in {@code order}. The caller must close the iterator. */
  KvIterator scan(KeyRange range, ScanOrder order);

  /** Every entry in {@code range} in ascending order. */
  default KvIterator scan(KeyRange range) {
    return scan(range, ScanOrder.ASCENDING);
  }

  /** Every entry whose key starts with {@code prefix}, ascending. */
  default KvIterator scanPrefix(byte[] prefix) {
    return scan(KeyRange.prefix(prefix), ScanOrder.ASCENDING);
  }
}
