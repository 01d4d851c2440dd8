package dev.moraine.core.index;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Encodes the values of an index's columns as the lake's index keys hold them (RFC 0002 §10.2),
 * byte for byte as the Rust implementation writes them, so that its lookups find Java's entries:
 *
 * <ul>
 *   <li>per column, in the index's column order, a flag byte: for NULLS LAST (the default) {@code
 *       01} for a NULL and {@code 00} for a value, the other way round for NULLS FIRST; a NULL is
 *       its flag alone;
 *   <li>after a value's flag, its raw bytes ({@link IndexKeyValue#raw}) framed: each byte {@code
 *       00} or {@code 01} preceded by {@code 01}, then a {@code 00} terminator; for a DESC column
 *       every framed byte, the terminator included, complemented (the flag is not);
 *   <li>the canonical key is the concatenation, whose unsigned byte order is the SQL order of the
 *       value tuples; the entry key frames it once more ({@link IndexEntryKey}), in the unique
 *       shape for a UNIQUE index unless a value is NULL (a NULL never collides), else in the multi
 *       shape with the row id after it.
 * </ul>
 *
 * Stateless.
 */
public final class IndexKeyEncoder {
  /** The most raw value bytes one key may hold, summed over its columns. */
  public static final int MAX_KEY_BYTES = 1024;

  private IndexKeyEncoder() {}

  /** A canonical key, and whether one of its values was NULL. */
  public record CanonicalKey(byte[] bytes, boolean hasNull) {
    public CanonicalKey {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }
  }

  /**
   * The canonical key of {@code values} (null for a NULL), one per column of {@code index}.
   *
   * @throws InvalidArgumentException if the count differs from the index's columns, an integer does
   *     not fit its width, or the raw bytes exceed {@link #MAX_KEY_BYTES}
   */
  public static CanonicalKey canonical(IndexInfo index, List<IndexKeyValue> values) {
    if (values.size() != index.columnIds().size()) {
      throw new InvalidArgumentException(
          values.size()
              + " values for the "
              + index.columnIds().size()
              + " columns of index "
              + index.name());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean hasNull = false;
    int rawBytes = 0;
    for (int i = 0; i < values.size(); i++) {
      boolean nullsFirst = flag(index.columnNullsFirst(), i);
      boolean descending = flag(index.columnDescending(), i);
      IndexKeyValue v = values.get(i);
      if (v == null) {
        out.write(nullsFirst ? 0x00 : 0x01);
        hasNull = true;
        continue;
      }
      if ((v instanceof IndexKeyValue.Signed s && !s.fits())
          || (v instanceof IndexKeyValue.Unsigned u && !u.fits())) {
        throw new InvalidArgumentException(
            "index key value " + v + " does not fit its declared integer width");
      }
      byte[] raw = v.raw();
      rawBytes += raw.length;
      if (rawBytes > MAX_KEY_BYTES) {
        throw new InvalidArgumentException(
            "an index key of more than " + MAX_KEY_BYTES + " bytes for index " + index.name());
      }
      out.write(nullsFirst ? 0x01 : 0x00);
      int mask = descending ? 0xff : 0x00;
      for (byte b : raw) {
        if ((b & 0xff) <= 1) {
          out.write(0x01 ^ mask);
        }
        out.write((b & 0xff) ^ mask);
      }
      out.write(mask);
    }
    return new CanonicalKey(out.toByteArray(), hasNull);
  }

  /** The entry key of row {@code rowId} under {@code key} in {@code index}. */
  public static IndexEntryKey entryKey(IndexInfo index, CanonicalKey key, long rowId) {
    return index.unique() && !key.hasNull()
        ? new IndexEntryKey.Unique(index.indexId(), key.bytes())
        : new IndexEntryKey.Multi(index.indexId(), key.bytes(), rowId);
  }

  /** The per-column order flag at {@code i}; a list shorter than the columns means the default. */
  private static boolean flag(List<Boolean> flags, int i) {
    return i < flags.size() && flags.get(i);
  }
}
