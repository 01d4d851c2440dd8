package dev.moraine.core.keyspace.key;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Keys under {@code 07}: equality-index entries (RFC 0002 §5.5). The canonical value is the index
 * encoder's output, opaque here; in the key it is written as an escaped, terminated byte string, so
 * entries of one index sort by canonical value, then (non-unique) by row id.
 */
public sealed interface IndexEntryKey extends Key {
  @Override
  default Subspace subspace() {
    return Subspace.INDEX;
  }

  long indexId();

  /** The canonical value; a fresh copy. */
  byte[] canonicalValue();

  /** {@code 07 02 BE64(index) <value>}: an entry of a unique index; the row id is the value. */
  final class Unique implements IndexEntryKey {
    private final long indexId;
    private final byte[] canonicalValue;

    public Unique(long indexId, byte[] canonicalValue) {
      this.indexId = indexId;
      this.canonicalValue = canonicalValue.clone();
    }

    @Override
    public long indexId() {
      return indexId;
    }

    @Override
    public byte[] canonicalValue() {
      return canonicalValue.clone();
    }

    byte[] value() {
      return canonicalValue;
    }

    @Override
    public String printable() {
      return "index/unique/"
          + Key.u(indexId)
          + "/x'"
          + HexFormat.of().formatHex(canonicalValue)
          + "'";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Unique u
          && u.indexId == indexId
          && Arrays.equals(u.canonicalValue, canonicalValue);
    }

    @Override
    public int hashCode() {
      return Objects.hash(indexId, Arrays.hashCode(canonicalValue));
    }

    @Override
    public String toString() {
      return printable();
    }
  }

  /**
   * {@code 07 03 BE64(index) <value> BE64(row_id)}: an entry of a non-unique index (and of any
   * entry holding a NULL). The row id follows the value's terminator raw, never escaped.
   */
  final class Multi implements IndexEntryKey {
    private final long indexId;
    private final byte[] canonicalValue;
    private final long rowId;

    public Multi(long indexId, byte[] canonicalValue, long rowId) {
      this.indexId = indexId;
      this.canonicalValue = canonicalValue.clone();
      this.rowId = rowId;
    }

    @Override
    public long indexId() {
      return indexId;
    }

    @Override
    public byte[] canonicalValue() {
      return canonicalValue.clone();
    }

    byte[] value() {
      return canonicalValue;
    }

    public long rowId() {
      return rowId;
    }

    @Override
    public String printable() {
      return "index/multi/"
          + Key.u(indexId)
          + "/x'"
          + HexFormat.of().formatHex(canonicalValue)
          + "'/"
          + Key.u(rowId);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Multi m
          && m.indexId == indexId
          && m.rowId == rowId
          && Arrays.equals(m.canonicalValue, canonicalValue);
    }

    @Override
    public int hashCode() {
      return Objects.hash(indexId, rowId, Arrays.hashCode(canonicalValue));
    }

    @Override
    public String toString() {
      return printable();
    }
  }
}
