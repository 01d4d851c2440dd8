package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The staged-row door's side of DuckLake replacing a delete file (RFC 0006 §10, §13): a second
 * DELETE from a data file that has a delete file deletes the old delete file outright ({@code
 * DELETE FROM ducklake_delete_file}: it leaves every snapshot, history included), schedules it for
 * deletion, and inserts a new delete file of every deleted position, backdated to the old one's
 * begin snapshot, with the new snapshot as its {@code partial_max}. Holds what a commit removes
 * this way and the schedule records it writes, for {@link StagedTranslation}.
 *
 * <p>Confined to the thread running the translation.
 */
final class StagedFileRemovals {
  private final StagedEntities staged;
  private final CompactionWrites writes = new CompactionWrites();

  /** (table, data file) -> the delete file of it this commit removed. */
  private final Map<List<Long>, DeleteFileValue> replaced = new HashMap<>();

  /** Delete file id -> whether a schedule row named it. */
  private final Map<Long, Boolean> scheduled = new HashMap<>();

  StagedFileRemovals(StagedEntities staged) {
    this.staged = staged;
  }

  /**
   * Removes the live delete file {@code d.row()} names from every snapshot. The row must be the one
   * the lake holds.
   */
  void remove(StagedRows.Delete d) {
    if (!(d.row() instanceof DeleteFileRow r)) {
      throw new InvalidArgumentException(
          StagedRowChecks.describe(d)
              + " is not taken by the staged-row door yet: it deletes delete files outright"
              + " only, as DuckLake does when it replaces one");
    }
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.deleteFileId(), r, "delete_file_id");
    EntityKey key = new EntityKey.DeleteFile(tableId, id);
    DeleteFileValue v =
        staged
            .get(key, DeleteFileValue.class)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "a delete of delete file "
                            + Long.toUnsignedString(id)
                            + ", which table "
                            + Long.toUnsignedString(tableId)
                            + " does not hold live"));
    boolean same =
        Long.valueOf(v.getBeginSnapshot()).equals(r.beginSnapshot())
            && r.endSnapshot() == null
            && v.getPath().equals(r.path())
            && Long.valueOf(v.getDataFileId()).equals(r.dataFileId())
            && Long.valueOf(v.getDeleteCount()).equals(r.deleteCount());
    if (!same || replaced.putIfAbsent(List.of(tableId, v.getDataFileId()), v) != null) {
      throw new InvalidArgumentException(
          "the delete of delete file "
              + Long.toUnsignedString(id)
              + " is not of the row the lake holds, or is given twice");
    }
    staged.delete(key);
    writes.removeWithoutHistory(key);
    scheduled.put(id, false);
  }

  /** A schedule row for a delete file this commit removed: the file cleanup deletes it later. */
  void schedule(FilesScheduledForDeletionRow r) {
    long id = required(r.dataFileId(), r, "data_file_id");
    Boolean before = scheduled.get(id);
    if (before == null || before) {
      throw new InvalidArgumentException(
          "ducklake_files_scheduled_for_deletion row for file "
              + Long.toUnsignedString(id)
              + ": the staged-row door takes a schedule only for a delete file the same commit"
              + " deletes, once");
    }
    scheduled.put(id, true);
    writes.schedule(
        id, required(r.path(), r, "path"), required(r.pathIsRelative(), r, "path_is_relative"));
  }

  /** The delete file of {@code dataFileId} this commit removed, if it did. */
  Optional<DeleteFileValue> replaced(long tableId, long dataFileId) {
    return Optional.ofNullable(replaced.get(List.of(tableId, dataFileId)));
  }

  /** The removals and schedules, for the commit's draft. */
  CompactionWrites writes() {
    return writes;
  }
}
