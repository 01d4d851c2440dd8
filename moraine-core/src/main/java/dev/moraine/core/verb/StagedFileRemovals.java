package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  /** File id -> the schedule record stock writes for it (its path from the data path). */
  private final Map<Long, GcFileValue> expected = new HashMap<>();

  /** Delete file ids a schedule row named. */
  private final Set<Long> scheduled = new HashSet<>();

  /** (table, data file) of the replacements inserted. */
  private final Set<List<Long>> replacements = new HashSet<>();

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
    removeOutright(key, tableId, id, v.getPath(), v.getPathIsRelative());
  }

  /**
   * Removes file {@code id} of {@code tableId}, recorded under {@code key}, from every snapshot,
   * and expects a schedule row for it with the record stock writes (its path from the data path).
   */
  void removeOutright(EntityKey key, long tableId, long id, String path, boolean relative) {
    TableValue table =
        staged
            .get(new EntityKey.Table(tableId), TableValue.class)
            .orElseThrow(() -> new NotFoundException(ErrorCode.NOT_FOUND, "table " + tableId));
    SchemaValue schema =
        staged
            .get(new EntityKey.Schema(table.getSchemaId()), SchemaValue.class)
            .orElseThrow(
                () -> new NotFoundException(ErrorCode.NOT_FOUND, "schema " + table.getSchemaId()));
    expected.put(id, SchedulePaths.of(schema, table, id, path, relative).build());
    staged.delete(key);
    writes.removeWithoutHistory(key);
  }

  /** Whether a schedule row named file {@code id}. */
  boolean isScheduled(long id) {
    return scheduled.contains(id);
  }

  /** A schedule row for a file this commit removed: the file cleanup deletes it later. */
  void schedule(FilesScheduledForDeletionRow r) {
    long id = required(r.dataFileId(), r, "data_file_id");
    GcFileValue file = expected.get(id);
    if (file == null || !scheduled.add(id)) {
      throw new InvalidArgumentException(
          "ducklake_files_scheduled_for_deletion row for file "
              + Long.toUnsignedString(id)
              + ": the staged-row door takes a schedule only for a file the same commit deletes,"
              + " once");
    }
    if (!file.getPath().equals(r.path())
        || !Boolean.valueOf(file.getPathIsRelative()).equals(r.pathIsRelative())) {
      throw new InvalidArgumentException(
          "ducklake_files_scheduled_for_deletion row for file "
              + Long.toUnsignedString(id)
              + " names "
              + r.path()
              + ", not the file's own path "
              + file.getPath());
    }
    writes.schedule(id, file.getPath(), file.getPathIsRelative());
  }

  /** A new delete file of {@code dataFileId} replaces the one this commit removed. */
  void replacedBy(long tableId, long dataFileId) {
    replacements.add(List.of(tableId, dataFileId));
  }

  /**
   * Checks that every delete file this commit removed was replaced and scheduled, as DuckLake
   * replaces one: a removal alone would bring its deleted rows back in every snapshot.
   */
  void requireComplete() {
    for (Map.Entry<List<Long>, DeleteFileValue> e : replaced.entrySet()) {
      long id = e.getValue().getDeleteFileId();
      if (!replacements.contains(e.getKey()) || !scheduled.contains(id)) {
        throw new InvalidArgumentException(
            "delete file "
                + Long.toUnsignedString(id)
                + " is deleted without a new delete file of data file "
                + Long.toUnsignedString(e.getKey().get(1))
                + " and its ducklake_files_scheduled_for_deletion row: the door takes a delete"
                + " file's removal only as DuckLake's replacement of it");
      }
    }
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
