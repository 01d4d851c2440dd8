package dev.moraine.core.kv;

import java.util.List;

/**
 * Point and range reads. What a view sees depends on what it is: the latest state of a store, a
 * frozen snapshot, or a transaction (its snapshot plus its own uncommitted writes).
 *
 * <p>All methods are safe to call from several threads at once unless the implementing type says
 * otherwise. Every method throws {@link KvClosedException} once the view (or the store it belongs
 * to) is closed, {@link KvUnavailableException} when the object store fails or a read does not
 * finish within the implementation's bound or is interrupted (the interrupt flag stays set), and
 * {@link KvDataException} for corrupt or missing data. A read never changes stored state.
 *
 * <p>Reads take a {@link ReadDurability} level (the methods without one read at {@link
 * ReadDurability#MEMORY}). What the level means on each kind of view:
 *
 * <ul>
 *   <li>the store (the writer): {@code MEMORY} sees every applied write; {@code REMOTE} only writes
 *       at or below the durable sequence number when the read starts.
 *   <li>a snapshot: {@code MEMORY} sees its frozen state; {@code REMOTE} sees that state limited to
 *       what is durable when the read starts, so two {@code REMOTE} reads of one snapshot can
 *       differ while the writes it froze are being flushed (never beyond the frozen state).
 *   <li>a transaction: {@code REMOTE} filters the stored state it reads; its own buffered writes
 *       are always visible to it.
 *   <li>a reader: it only ever holds durable data, so both levels read the same.
 * </ul>
 */
public interface KvReadView {

  /**
   * The value of {@code key}, or null if it has none. Sees every applied write ({@link
   * ReadDurability#MEMORY}).
   *
   * @throws KvInvalidArgumentException for an empty or oversized key
   */
  default byte[] get(byte[] key) {
    return get(key, ReadDurability.MEMORY);
  }

  /** Every entry in {@code range}, in {@code order}. The caller must close the iterator. */
  default KvIterator scan(KeyRange range, ScanOrder order) {
    return scan(range, order, ReadDurability.MEMORY);
  }

  /** Every entry in {@code range} in ascending order. */
  default KvIterator scan(KeyRange range) {
    return scan(range, ScanOrder.ASCENDING);
  }

  /** Every entry whose key starts with {@code prefix}, ascending. */
  default KvIterator scanPrefix(byte[] prefix) {
    return scan(KeyRange.prefix(prefix), ScanOrder.ASCENDING);
  }

  // ---------------------------------------------------------------- multi-get

  /**
   * The values of {@code keys}, in the order of the keys, with null for a key that has none. Sees
   * every applied write ({@link ReadDurability#MEMORY}). See {@link #getAll(List, ReadDurability)}.
   */
  default List<byte[]> getAll(List<byte[]> keys) {
    return getAll(keys, ReadDurability.MEMORY);
  }

  // ---------------------------------------------------------------- durability filter

  /**
   * The value of {@code key} as seen at {@code durability}, or null if it has none there (see the
   * class comment for what the level means on each kind of view).
   *
   * @throws KvInvalidArgumentException for an empty or oversized key, or a null level
   */
  byte[] get(byte[] key, ReadDurability durability);

  /**
   * Every entry in {@code range}, in {@code order}, as seen at {@code durability}. The level's cut
   * is taken when the scan opens. The caller must close the iterator.
   *
   * @throws KvInvalidArgumentException for a null range, order or level
   */
  KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability);

  /**
   * The values of {@code keys} as seen at {@code durability}, in the order of the keys, with null
   * for a key that has none there. A key may appear more than once. The returned list and its
   * arrays belong to the caller.
   *
   * <p>At {@link ReadDurability#MEMORY}, a snapshot or a transaction reads every key from the same
   * state. Otherwise (the store, a latest-following reader, or {@link ReadDurability#REMOTE}
   * anywhere) each key is read as {@link #get(byte[], ReadDurability)} would at its moment: a write
   * applied, or made durable, while the call runs may be seen for some keys and not others. Use a
   * snapshot at {@code MEMORY} where that matters.
   *
   * @throws KvInvalidArgumentException for a null list, a null, empty or oversized key, or a null
   *     level; nothing was read
   * @throws KvDataException if the values together do not fit in one Java array (about 2 GiB): read
   *     fewer keys at a time
   */
  List<byte[]> getAll(List<byte[]> keys, ReadDurability durability);
}
