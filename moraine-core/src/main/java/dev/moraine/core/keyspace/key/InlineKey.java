package dev.moraine.core.keyspace.key;

import java.util.Objects;

/** Keys under {@code 06}: inlined data and its directory (RFC 0002 §5.4, §9). */
public sealed interface InlineKey extends Key {
  @Override
  default Subspace subspace() {
    return Subspace.INLINE;
  }

  /** {@code 06 02 BE64(table) BE64(schema_version)}: the Arrow schema of one table version. */
  record Schema(long tableId, long schemaVersion) implements InlineKey {
    @Override
    public String printable() {
      return "inline/schema/" + Key.u(tableId) + "/" + Key.u(schemaVersion);
    }
  }

  /**
   * {@code 06 03 <op>} (live) or {@code 06 04 <op>} (archived): an inline record. Archived keys
   * differ from live ones only in the second byte, so every archived key sorts after every live
   * one. Format 9 writes only the live form.
   */
  record Record(Form form, InlineOp op) implements InlineKey {
    public Record {
      Objects.requireNonNull(form, "form");
      Objects.requireNonNull(op, "op");
    }

    public static Record live(InlineOp op) {
      return new Record(Form.LIVE, op);
    }

    @Override
    public String printable() {
      return "inline/" + form.label + "/" + op.printable();
    }
  }

  /** Whether an inline record is live or archived. */
  enum Form {
    LIVE(0x03, "live"),
    ARCHIVED(0x04, "archived");

    final int tag;
    final String label;

    Form(int tag, String label) {
      this.tag = tag;
      this.label = label;
    }
  }

  /** {@code 06 05 BE64(table)}: marks that the table has inlined deletions of file rows. */
  record FileDeleteTable(long tableId) implements InlineKey {
    @Override
    public String printable() {
      return "inline/file_delete_table/" + Key.u(tableId);
    }
  }

  /**
   * {@code 06 06 BE64(table) BE64(row_id_end)}: the chunk directory entry of formats 6 and 7,
   * superseded by {@link ChunkLocator}. Still decoded so that it can be recognised and swept; its
   * value is never read.
   */
  record LegacyChunkRange(long tableId, long rowIdEnd) implements InlineKey {
    @Override
    public String printable() {
      return "inline/legacy_chunk_range/" + Key.u(tableId) + "/" + Key.u(rowIdEnd);
    }
  }

  /** {@code 06 07 BE64(table) BE64(schema_version)}: the version was flushed and deregistered. */
  record SchemaDropped(long tableId, long schemaVersion) implements InlineKey {
    @Override
    public String printable() {
      return "inline/schema_dropped/" + Key.u(tableId) + "/" + Key.u(schemaVersion);
    }
  }

  /**
   * {@code 06 08 BE64(table) BE64(row_id_end) BE64(schema_version) BE64(begin_snapshot)
   * BE64(chunk_seq)}: the directory entry of one live insert chunk, {@code rowIdEnd} inclusive.
   * Ranges of live chunks can overlap, so several locators may cover one row id.
   */
  record ChunkLocator(
      long tableId, long rowIdEnd, long schemaVersion, long beginSnapshot, long chunkSeq)
      implements InlineKey {
    @Override
    public String printable() {
      return "inline/chunk_locator/"
          + Key.u(tableId)
          + "/"
          + Key.u(rowIdEnd)
          + "/"
          + Key.u(schemaVersion)
          + "/"
          + Key.u(beginSnapshot)
          + "/"
          + Key.u(chunkSeq);
    }
  }

  /** {@code 06 09 BE64(table) BE64(row_id) BE64(end_snapshot)}: one deletion of an inlined row. */
  record RowTombstone(long tableId, long rowId, long endSnapshot) implements InlineKey {
    @Override
    public String printable() {
      return "inline/row_tombstone/"
          + Key.u(tableId)
          + "/"
          + Key.u(rowId)
          + "@"
          + Key.u(endSnapshot);
    }
  }
}
