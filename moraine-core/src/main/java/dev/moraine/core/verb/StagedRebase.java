package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.inline.FileStatsMerge;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.InterveningChanges;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The staged-row door's rebase (RFC 0006 §14): rows DuckLake authored against a snapshot older than
 * the head they land on, moved onto that head as DuckLake itself would re-derive them when it
 * re-drives the commit. Only a data-only commit is moved: one that creates, alters or drops nothing
 * (its schema version and catalog counter are the base's). Moved are the values a data-only commit
 * derives from the head it read, and nothing else:
 *
 * <ul>
 *   <li>the snapshot id, and every {@code begin_snapshot} and end of a file stamped with it, to the
 *       head plus one ({@code partial_max} stays: it names the snapshot ids written inside the
 *       file, which stock DuckLake does not rewrite when it re-drives either); the schema version
 *       and catalog counter to the head's;
 *   <li>the file ids drawn from {@code next_file_id}, by the head's advance of that counter, in
 *       every row that names them, and {@code next_file_id} itself;
 *   <li>for a table the commit appends to, {@code row_id_start} by the table's advance of {@code
 *       next_row_id}, and its {@code ducklake_table_stats} row re-derived as the head's plus the
 *       commit's own files; its {@code ducklake_table_column_stats} rows merged with the head's by
 *       minimum and maximum.
 * </ul>
 *
 * Before anything moves, the commits that landed since the base are judged against this one by
 * DuckLake's conflict matrix, on the change set DuckLake wrote for it: a true conflict, a shape the
 * rebase cannot move, or a base no longer held is {@link CommitConflictException}, whose text holds
 * "conflict", the word DuckLake re-drives on.
 */
final class StagedRebase {
  private final SnapshotView premise;
  private final SnapshotValue head;
  private final StagedRows rows;
  private final long n;

  /** What the base stamped as its new snapshot: the base plus one. */
  private final long stamped;

  private long fileFrom;
  private long fileTo;
  private long fileShift;
  private final Map<Long, Long> rowShift = new HashMap<>();

  private StagedRebase(SnapshotView premise, SnapshotValue head, StagedRows rows) {
    this.premise = premise;
    this.head = head;
    this.rows = rows;
    this.n = head.getSnapshotId() + 1;
    this.stamped = rows.baseSnapshotId() + 1;
  }

  /**
   * {@code rows} authored against the premise's head: as given when they were, moved onto it when
   * they were authored against an older snapshot.
   *
   * @throws CommitConflictException if they rest on an older snapshot and cannot be moved: a commit
   *     since conflicts with them by DuckLake's rules, their shape is not data-only, or the base is
   *     gone
   * @throws InvalidArgumentException if a row the rebase reads is malformed
   */
  static StagedRows onto(SnapshotView premise, SnapshotValue head, StagedRows rows) {
    if (Long.compareUnsigned(rows.baseSnapshotId(), head.getSnapshotId()) >= 0) {
      // At the head, nothing to move; past it, the translation refuses.
      return rows;
    }
    if (StagedOptions.onlyOptions(rows.ops())) {
      // Options are last-write-wins and derive nothing from the head: as good against it.
      return new StagedRows(head.getSnapshotId(), rows.ops());
    }
    return new StagedRebase(premise, head, rows).run();
  }

  private StagedRows run() {
    SnapshotRow snapshot = null;
    SnapshotChangesRow changes = null;
    List<DataFileRow> files = new ArrayList<>();
    List<Long> deleted = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      if (op == null) {
        throw new InvalidArgumentException("a staged row operation is null");
      }
      DuckLakeRow row = op.row();
      if (op instanceof StagedRows.Delete && row instanceof DeleteFileRow) {
        // A delete file of the base, replaced: its id does not move.
        continue;
      }
      if (op instanceof StagedRows.End) {
        if (row instanceof DataFileRow f) {
          deleted.add(required(f.dataFileId(), f, "data_file_id"));
        } else if (!(row instanceof DeleteFileRow)) {
          throw lost(
              "a commit holding "
                  + StagedRowChecks.describe(op)
                  + " is not data-only, and only data-only commits are rebased");
        }
        continue;
      }
      if (!(op instanceof StagedRows.Insert) || !movable(row)) {
        throw lost(
            "a commit holding "
                + StagedRowChecks.describe(op)
                + " is not data-only, and only data-only commits are rebased");
      }
      if (row instanceof SnapshotRow s) {
        snapshot = s;
      } else if (row instanceof SnapshotChangesRow c) {
        changes = c;
      } else if (row instanceof DataFileRow f) {
        files.add(f);
      } else if (row instanceof DeleteFileRow d) {
        deleted.add(required(d.dataFileId(), d, "data_file_id"));
      }
    }
    if (snapshot == null || changes == null) {
      throw lost("a commit without its snapshot rows is not rebased");
    }
    long base = rows.baseSnapshotId();
    SnapshotValue baseRecord = premise.loadFor(v -> CatalogReads.readSnapshot(v, base));
    if (baseRecord == null) {
      throw lost("snapshot " + Long.toUnsignedString(base) + ", its base, is no longer held");
    }
    if (required(snapshot.snapshotId(), snapshot, "snapshot_id") != stamped) {
      throw new InvalidArgumentException(
          "snapshot "
              + Long.toUnsignedString(snapshot.snapshotId())
              + " does not follow its base "
              + Long.toUnsignedString(base));
    }
    if (required(snapshot.schemaVersion(), snapshot, "schema_version")
            != baseRecord.getSchemaVersion()
        || required(snapshot.nextCatalogId(), snapshot, "next_catalog_id")
            != baseRecord.getNextCatalogId()) {
      throw lost("it changes the catalog's shape, and only data-only commits are rebased");
    }
    fileFrom = baseRecord.getNextFileId();
    fileTo = required(snapshot.nextFileId(), snapshot, "next_file_id");
    if (Long.compareUnsigned(fileTo, fileFrom) < 0) {
      throw new InvalidArgumentException(
          "snapshot "
              + Long.toUnsignedString(stamped)
              + " moves next_file_id back, to "
              + Long.toUnsignedString(fileTo));
    }
    fileShift = head.getNextFileId() - fileFrom;

    ChangeSet changeSet = StagedTranslation.changeSet(changes.changesMade());
    InterveningChanges since =
        premise.loadFor(v -> InterveningChanges.read(v, base, head.getSnapshotId()));
    String conflict =
        since.conflictWith(changeSet, deleted, premise, baseRecord.getNextCatalogId());
    if (conflict != null) {
      throw new CommitConflictException(conflict);
    }

    Map<Long, TableStatsRow> tableStats = new HashMap<>();
    for (StagedRows.Op op : rows.ops()) {
      if (op.row() instanceof TableStatsRow t) {
        tableStats.put(required(t.tableId(), t, "table_id"), t);
      }
    }
    Map<Long, Long> appended = new HashMap<>();
    Map<Long, Long> bytes = new HashMap<>();
    for (DataFileRow f : files) {
      long tableId = required(f.tableId(), f, "table_id");
      appended.merge(tableId, required(f.recordCount(), f, "record_count"), Long::sum);
      bytes.merge(tableId, required(f.fileSizeBytes(), f, "file_size_bytes"), Long::sum);
    }
    for (Map.Entry<Long, Long> e : appended.entrySet()) {
      TableStatsRow given = tableStats.get(e.getKey());
      if (given == null) {
        throw lost(
            "it appends to table "
                + Long.toUnsignedString(e.getKey())
                + " without that table's ducklake_table_stats row, the counter its row ids are"
                + " moved by");
      }
      long baseNext = required(given.nextRowId(), given, "next_row_id") - e.getValue();
      rowShift.put(e.getKey(), nextRowId(e.getKey()) - baseNext);
    }
    for (Long tableId : tableStats.keySet()) {
      if (!appended.containsKey(tableId)) {
        throw lost(
            "it rewrites table "
                + Long.toUnsignedString(tableId)
                + "'s statistics without adding rows to it");
      }
    }

    List<StagedRows.Op> moved = new ArrayList<>(rows.ops().size());
    for (StagedRows.Op op : rows.ops()) {
      // An end names a file the base held, whose ids do not move; only its end does.
      if (op instanceof StagedRows.End e) {
        moved.add(new StagedRows.End(e.row(), snapshot(e.endSnapshot())));
      } else if (op instanceof StagedRows.Delete) {
        moved.add(op);
      } else {
        moved.add(new StagedRows.Insert(move(op.row(), appended, bytes)));
      }
    }
    return new StagedRows(head.getSnapshotId(), moved);
  }

  private static boolean movable(DuckLakeRow row) {
    return row instanceof SnapshotRow
        || row instanceof SnapshotChangesRow
        || row instanceof DataFileRow
        || row instanceof DeleteFileRow
        || row instanceof FilePartitionValueRow
        || row instanceof FileColumnStatsRow
        || row instanceof TableStatsRow
        || row instanceof TableColumnStatsRow
        || row instanceof FilesScheduledForDeletionRow;
  }

  private DuckLakeRow move(DuckLakeRow row, Map<Long, Long> appended, Map<Long, Long> bytes) {
    if (row instanceof SnapshotRow s) {
      return new SnapshotRow(
          n,
          s.snapshotTime(),
          head.getSchemaVersion(),
          head.getNextCatalogId(),
          fileTo + fileShift);
    }
    if (row instanceof SnapshotChangesRow c) {
      return new SnapshotChangesRow(
          n, c.changesMade(), c.author(), c.commitMessage(), c.commitExtraInfo());
    }
    if (row instanceof DataFileRow f) {
      Long shift = rowShift.get(f.tableId());
      return new DataFileRow(
          file(f.dataFileId()),
          f.tableId(),
          snapshot(f.beginSnapshot()),
          f.endSnapshot(),
          f.fileOrder(),
          f.path(),
          f.pathIsRelative(),
          f.fileFormat(),
          f.recordCount(),
          f.fileSizeBytes(),
          f.footerSize(),
          f.rowIdStart() == null || shift == null ? f.rowIdStart() : f.rowIdStart() + shift,
          f.partitionId(),
          f.encryptionKey(),
          f.mappingId(),
          f.partialMax());
    }
    if (row instanceof DeleteFileRow d) {
      return new DeleteFileRow(
          file(d.deleteFileId()),
          d.tableId(),
          snapshot(d.beginSnapshot()),
          d.endSnapshot(),
          file(d.dataFileId()),
          d.path(),
          d.pathIsRelative(),
          d.format(),
          d.deleteCount(),
          d.fileSizeBytes(),
          d.footerSize(),
          d.encryptionKey(),
          d.partialMax());
    }
    if (row instanceof FilePartitionValueRow v) {
      return new FilePartitionValueRow(
          file(v.dataFileId()), v.tableId(), v.partitionKeyIndex(), v.partitionValue());
    }
    if (row instanceof FileColumnStatsRow s) {
      return new FileColumnStatsRow(
          file(s.dataFileId()),
          s.tableId(),
          s.columnId(),
          s.columnSizeBytes(),
          s.valueCount(),
          s.nullCount(),
          s.minValue(),
          s.maxValue(),
          s.containsNan(),
          s.extraStats());
    }
    if (row instanceof FilesScheduledForDeletionRow) {
      // It names a delete file of the base, and its time is the commit's own.
      return row;
    }
    if (row instanceof TableStatsRow t) {
      // The head's statistics plus this commit's own files, which is what DuckLake adds when it
      // re-drives an insert against a newer snapshot.
      TableStats now = premise.tableStats(t.tableId()).orElse(null);
      long rows = appended.get(t.tableId());
      return new TableStatsRow(
          t.tableId(),
          (now == null ? 0 : now.recordCount()) + rows,
          nextRowId(t.tableId()) + rows,
          (now == null ? 0 : now.fileSizeBytes()) + bytes.get(t.tableId()));
    }
    return mergedColumnStats((TableColumnStatsRow) row);
  }

  /**
   * The commit's statistics of a column merged with the head's: nulls and NaNs once seen stay seen,
   * the lower minimum and the higher maximum stand, compared by the column's type. A bound one side
   * does not know (it saw only nulls) is the other side's.
   */
  private TableColumnStatsRow mergedColumnStats(TableColumnStatsRow mine) {
    long tableId = required(mine.tableId(), mine, "table_id");
    long columnId = required(mine.columnId(), mine, "column_id");
    ColumnStats now = premise.columnStats(tableId, columnId).orElse(null);
    if (now == null) {
      return mine;
    }
    if (now.extraStats().isPresent()
        && mine.extraStats() != null
        && !now.extraStats().get().equals(mine.extraStats())) {
      throw lost(column(tableId, columnId) + " has extra statistics this library cannot merge");
    }
    List<ColumnValue> columns =
        premise.recordsOf(
            dev.moraine.core.keyspace.key.EntityKind.COLUMN, tableId, ColumnValue.class);
    ColumnValue column =
        columns.stream().filter(c -> c.getColumnId() == columnId).findFirst().orElse(null);
    if (column == null) {
      throw lost(column(tableId, columnId) + " is gone at the head");
    }
    return new TableColumnStatsRow(
        tableId,
        columnId,
        either(now.containsNull().orElse(null), mine.containsNull()),
        either(now.containsNan().orElse(null), mine.containsNan()),
        bound(column, columns, now.minValue().orElse(null), mine.minValue(), -1),
        bound(column, columns, now.maxValue().orElse(null), mine.maxValue(), 1),
        mine.extraStats() != null ? mine.extraStats() : now.extraStats().orElse(null));
  }

  private static String column(long tableId, long columnId) {
    return "column "
        + Long.toUnsignedString(columnId)
        + " of table "
        + Long.toUnsignedString(tableId);
  }

  private static Boolean either(Boolean a, Boolean b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return a || b;
  }

  /** The lower ({@code side} -1) or higher ({@code side} 1) of two bounds, either may be null. */
  private static String bound(
      ColumnValue column, List<ColumnValue> columns, String a, String b, int side) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return FileStatsMerge.compareBounds(column, columns, b, a) * side > 0 ? b : a;
  }

  private long nextRowId(long tableId) {
    return premise.tableStats(tableId).map(TableStats::nextRowId).orElse(0L);
  }

  /** A file id of this commit's range moved by the head's advance; any other as it is. */
  private Long file(Long id) {
    if (id == null
        || Long.compareUnsigned(id, fileFrom) < 0
        || Long.compareUnsigned(id, fileTo) >= 0) {
      return id;
    }
    return id + fileShift;
  }

  /** The stamped snapshot moved to the new one; any other as it is. */
  private Long snapshot(Long id) {
    return Objects.equals(id, stamped) ? Long.valueOf(n) : id;
  }

  private CommitConflictException lost(String why) {
    return new CommitConflictException(
        "commit conflict: the rows were authored against snapshot "
            + Long.toUnsignedString(rows.baseSnapshotId())
            + " but snapshot(s) up to "
            + Long.toUnsignedString(head.getSnapshotId())
            + " landed since, and they cannot be moved onto them: "
            + why
            + "; read the catalog again");
  }
}
