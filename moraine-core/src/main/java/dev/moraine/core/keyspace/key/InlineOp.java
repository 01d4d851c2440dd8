package dev.moraine.core.keyspace.key;

/**
 * The operation of a live or archived inline record: the third byte of {@code 06 03}/{@code 06 04}.
 */
public sealed interface InlineOp {
  String printable();

  /** Op {@code 02}: one chunk of inserted rows. */
  record InsertChunk(long tableId, long schemaVersion, long beginSnapshot, long chunkSeq)
      implements InlineOp {
    @Override
    public String printable() {
      return "insert/"
          + Key.u(tableId)
          + "/"
          + Key.u(schemaVersion)
          + "/"
          + Key.u(beginSnapshot)
          + "/"
          + Key.u(chunkSeq);
    }
  }

  /**
   * Op {@code 03}: the deletion record of formats before 9, one per row; read only by the 8-to-9
   * migration, replaced by {@link InlineKey.RowTombstone}.
   */
  record LegacyInlineDelete(long tableId, long rowId) implements InlineOp {
    @Override
    public String printable() {
      return "legacy_inline_delete/" + Key.u(tableId) + "/" + Key.u(rowId);
    }
  }

  /** Op {@code 04}: an inlined deletion of one row of a data file. */
  record FileDelete(long tableId, long dataFileId, long rowId) implements InlineOp {
    @Override
    public String printable() {
      return "file_delete/" + Key.u(tableId) + "/" + Key.u(dataFileId) + "/" + Key.u(rowId);
    }
  }
}
