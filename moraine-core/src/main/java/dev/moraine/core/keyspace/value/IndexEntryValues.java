package dev.moraine.core.keyspace.value;

import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import java.util.HexFormat;

/**
 * The two unframed values of the lake (RFC 0002 §5.5): a unique index entry holds its row id as 8
 * big-endian bytes; a non-unique entry holds nothing.
 */
public final class IndexEntryValues {
  private IndexEntryValues() {}

  /** The value of a unique entry: {@code BE64(rowId)}. */
  public static byte[] uniqueRow(long rowId) {
    byte[] out = new byte[8];
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (rowId >>> (56 - 8 * i));
    }
    return out;
  }

  /**
   * The row id stored under a unique entry.
   *
   * @throws KeyspaceDataException the value is not exactly 8 bytes; nothing is returned
   */
  public static long decodeUniqueRow(IndexEntryKey.Unique key, byte[] value) {
    if (value.length != 8) {
      throw new KeyspaceDataException(
          key.printable(), "unique index entry value is " + value.length + " byte(s), not 8");
    }
    long v = 0;
    for (byte b : value) {
      v = (v << 8) | (b & 0xff);
    }
    return v;
  }

  /** The value of a non-unique entry: empty. */
  public static byte[] multi() {
    return new byte[0];
  }

  /**
   * Checks the value stored under a non-unique entry.
   *
   * @throws KeyspaceDataException the value is not empty
   */
  public static void checkMulti(IndexEntryKey.Multi key, byte[] value) {
    if (value.length != 0) {
      throw new KeyspaceDataException(
          key.printable(),
          "non-unique index entry value must be empty, found x'"
              + HexFormat.of().formatHex(value)
              + "'");
    }
  }
}
