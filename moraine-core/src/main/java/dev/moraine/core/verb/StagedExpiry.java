package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The staged-row door's snapshot expiry (RFC 0006 §13): DuckLake's {@code
 * ducklake_expire_snapshots} deletes the rows of the snapshots it expires and every row only they
 * saw, and schedules the files no retained snapshot reads. The door takes such a commit as the
 * expiry of the snapshots whose {@code ducklake_snapshot} rows it deletes, which the lake's own
 * expiry ({@code Catalog.expireSnapshots}) then carries out against the head it lands on, deriving
 * the rest as stock does (RFC 0005 §3): a head-preserving commit, whose race with other commits is
 * re-driven by running it against the head. A file cleanup ({@link #cleanedFiles}) is taken the
 * same way, as the removal of the schedule records of the files DuckLake deleted. Stateless.
 */
public final class StagedExpiry {
  private StagedExpiry() {}

  /**
   * The snapshots {@code rows} expire, if they are an expiry: deletes of {@code ducklake_snapshot}
   * rows, with the deletes and schedules that go with them, and no new snapshot.
   *
   * @throws InvalidArgumentException if the rows delete snapshots and also insert or end other
   *     rows: an expiry is a commit of its own
   */
  public static Optional<List<Long>> expiredSnapshots(StagedRows rows) {
    if (rows == null) {
      return Optional.empty();
    }
    List<Long> ids = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      if (op instanceof StagedRows.Delete d && d.row() instanceof SnapshotRow s) {
        ids.add(StagedRowChecks.required(s.snapshotId(), s, "snapshot_id"));
      }
    }
    if (ids.isEmpty()) {
      return Optional.empty();
    }
    for (StagedRows.Op op : rows.ops()) {
      // An expiry deletes the rows only expired snapshots saw: ended versions, the snapshots' own
      // rows and what hangs off ended files (their delete files, live or not); never another live
      // version, an option or a schedule.
      boolean expiryRow =
          (op instanceof StagedRows.Delete
                  && !(op.row() instanceof dev.moraine.ducklake.rows.MetadataRow)
                  && !(op.row() instanceof FilesScheduledForDeletionRow)
                  && !liveVersion(op.row()))
              || (op instanceof StagedRows.Insert
                  && op.row() instanceof FilesScheduledForDeletionRow);
      if (!expiryRow) {
        throw new InvalidArgumentException(
            "the rows expire snapshots "
                + ids
                + " and hold "
                + StagedRowChecks.describe(op)
                + ": the door takes an expiry only as a commit of its own");
      }
    }
    for (StagedRows.InlinedOp op : rows.inlined()) {
      if (!StagedInlineFlush.isRemoval(op)) {
        throw new InvalidArgumentException(
            "the rows expire snapshots "
                + ids
                + " and change inlined rows ("
                + op
                + "): the door takes an expiry only as a commit of its own");
      }
    }
    return Optional.of(List.copyOf(ids));
  }

  /**
   * Whether {@code row} is of a versioned table and has no end: a live version. A delete file stays
   * live when its data file ends (stock DuckLake 1.5.5), and goes with that file's expiry.
   */
  private static boolean liveVersion(dev.moraine.ducklake.rows.DuckLakeRow row) {
    if (!row.def().columnNames().contains("end_snapshot")
        || row instanceof dev.moraine.ducklake.rows.DeleteFileRow) {
      return false;
    }
    for (java.lang.reflect.RecordComponent c : row.getClass().getRecordComponents()) {
      if (c.getName().equals("endSnapshot")) {
        try {
          return c.getAccessor().invoke(row) == null;
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("cannot read the end of " + row, e);
        }
      }
    }
    return false;
  }

  /**
   * The files {@code rows} take off the deletion schedule, if they are DuckLake's file cleanup
   * ({@code ducklake_cleanup_old_files}: deletes of {@code ducklake_files_scheduled_for_deletion}
   * rows, the files deleted already, and nothing else).
   */
  public static Optional<List<Long>> cleanedFiles(StagedRows rows) {
    if (rows == null || rows.ops().isEmpty() || !rows.inlined().isEmpty()) {
      return Optional.empty();
    }
    List<Long> ids = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      if (!(op instanceof StagedRows.Delete d
          && d.row() instanceof FilesScheduledForDeletionRow f)) {
        return Optional.empty();
      }
      ids.add(StagedRowChecks.required(f.dataFileId(), f, "data_file_id"));
    }
    return Optional.of(List.copyOf(ids));
  }
}
