package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.inline.FileStatsMerge;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.InterveningChanges;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
import dev.moraine.ducklake.rows.NameMappingRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
 * A merge of files moves by the same rules: its merged file's id moves, while its backdated begin,
 * its row ids and the inputs it deletes and schedules are of the base and stay.
 *
 * <p>Before anything moves, the commits that landed since the base are judged against this one by
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

  /** The furthest a base may be behind the head and still be rebased. */
  static final long MAX_DISTANCE = 1000;

  /** Data file id (as authored) -> column id -> the file's statistics row. */
  private final Map<Long, Map<Long, FileColumnStatsRow>> fileStats = new HashMap<>();

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
    if (StagedOptions.onlyOptions(rows.ops()) && rows.inlined().isEmpty()) {
      // Options are last-write-wins and derive nothing from the head: as good against it.
      return new StagedRows(head.getSnapshotId(), rows.ops());
    }
    return new StagedRebase(premise, head, rows).run();
  }

  private StagedRows run() {
    StagedInlinedShape inlined = StagedInlinedShape.of(rows.inlined());
    Set<Long> flushed = StagedInlineFlush.flushedTables(rows.inlined());
    // Table -> bytes of the files a flush of it writes (backdated, like a merge's).
    Map<Long, Long> flushedBytes = new HashMap<>();
    SnapshotRow snapshot = null;
    SnapshotChangesRow changes = null;
    List<DataFileRow> files = new ArrayList<>();
    List<Long> deleted = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      if (op == null) {
        throw new InvalidArgumentException("a staged row operation is null");
      }
      DuckLakeRow row = op.row();
      if (op instanceof StagedRows.Delete && row instanceof InlinedDataTablesRow) {
        // A flush's deregistration of an emptied inlined-data table of the base: stays.
        continue;
      }
      if (StagedMerges.isMergeRemoval(op)) {
        // An input of a merge, or a row that leaves with it: of the base, its ids do not move.
        // DuckLake judges a merge by its change kind, not by the files it reads.
        continue;
      }
      if (op instanceof StagedRows.Delete && row instanceof DeleteFileRow d) {
        // A delete file of the base, replaced: its id does not move.
        deleted.add(required(d.dataFileId(), d, "data_file_id"));
        continue;
      }
      if (op instanceof StagedRows.End) {
        if (row instanceof DataFileRow f) {
          deleted.add(required(f.dataFileId(), f, "data_file_id"));
        } else if (row instanceof DeleteFileRow d) {
          deleted.add(required(d.dataFileId(), d, "data_file_id"));
        } else {
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
        // A merged or flushed file is backdated and keeps its rows' ids: it appends nothing.
        if (!Long.valueOf(stamped).equals(f.beginSnapshot())) {
          if (f.tableId() != null && flushed.contains(f.tableId())) {
            flushedBytes.merge(
                f.tableId(), required(f.fileSizeBytes(), f, "file_size_bytes"), Long::sum);
          }
          continue;
        }
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
    if (head.getSnapshotId() - base > MAX_DISTANCE) {
      // Judging it reads every snapshot record since, on the commit thread: bounded.
      throw lost("its base is more than " + MAX_DISTANCE + " snapshots behind the head");
    }
    if (required(changes.snapshotId(), changes, "snapshot_id") != stamped) {
      throw new InvalidArgumentException(
          "the ducklake_snapshot_changes row is for snapshot "
              + changes.snapshotId()
              + ", the ducklake_snapshot row for "
              + stamped);
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
    deleted.addAll(inlined.filesDeletedFrom());
    String conflict =
        since.conflictWith(changeSet, deleted, premise, baseRecord.getNextCatalogId());
    if (conflict != null) {
      throw new CommitConflictException(conflict);
    }
    for (StagedRows.Op op : rows.ops()) {
      // A merge past a change to its table other than an append (an inline delete of an input's
      // row, which DuckLake's matrix does not call a conflict) would take a file whose rows the
      // change names: a lost race, re-driven against the head.
      if (op instanceof StagedRows.Delete
          && op.row() instanceof DataFileRow f
          && f.tableId() != null
          && since.changesBeyondAppends(f.tableId())) {
        throw lost(
            "it merges files of table "
                + Long.toUnsignedString(f.tableId())
                + ", and a commit since changed that table otherwise than by appending");
      }
    }
    for (long tableId : flushed) {
      // Rows inlined since stay inlined; anything else done to the table since (a delete, a
      // flush) would change what the flush read: not followed.
      if (since.changesBeyondAppends(tableId)) {
        throw lost(
            "it flushes table "
                + Long.toUnsignedString(tableId)
                + "'s inlined rows, and a commit since changed that table otherwise than by"
                + " appending");
      }
    }
    for (long tableId : inlined.deletedFrom()) {
      // Past a commit to the table that is no conflict (a flush, a delete from another file), the
      // rows this commit deletes may have moved into files: not followed yet.
      if (since.touches(tableId)) {
        throw lost(
            "it deletes rows of table "
                + Long.toUnsignedString(tableId)
                + " inline, and a commit since changed that table");
      }
    }

    for (StagedRows.Op op : rows.ops()) {
      if (op.row() instanceof FileColumnStatsRow st) {
        fileStats
            .computeIfAbsent(required(st.dataFileId(), st, "data_file_id"), k -> new HashMap<>())
            .put(required(st.columnId(), st, "column_id"), st);
      }
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
    for (long tableId : flushed) {
      if (appended.containsKey(tableId) || inlined.tables().contains(tableId)) {
        throw lost(
            "it flushes table "
                + Long.toUnsignedString(tableId)
                + " and adds rows to it in one commit, which the rebase does not move yet");
      }
    }
    for (long tableId : inlined.tables()) {
      if (appended.containsKey(tableId)) {
        throw lost(
            "it inlines rows into table "
                + Long.toUnsignedString(tableId)
                + " and adds files to it in one commit, which the rebase does not move yet");
      }
    }
    // Inlined appends count as added rows for the table's row ids; their statistics are left to
    // the inline verbs, which derive them from the head's as DuckLake's re-drive does.
    inlined.appended().forEach((t, count) -> appended.put(t, count));
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
      if (baseNext < 0) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(e.getKey())
                + "'s next_row_id is below the rows this commit adds to it");
      }
      rowShift.put(e.getKey(), nextRowId(e.getKey()) - baseNext);
    }
    for (Long tableId : tableStats.keySet()) {
      if (!appended.containsKey(tableId)
          && !inlined.tables().contains(tableId)
          && !flushed.contains(tableId)) {
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
      } else if (op.row() instanceof TableStatsRow t && flushed.contains(t.tableId())) {
        // A flush adds its files' bytes and no rows: the head's statistics plus those bytes.
        TableStats now = premise.tableStats(t.tableId()).orElse(null);
        moved.add(
            new StagedRows.Insert(
                new TableStatsRow(
                    t.tableId(),
                    now == null ? 0 : now.recordCount(),
                    nextRowId(t.tableId()),
                    (now == null ? 0 : now.fileSizeBytes())
                        + flushedBytes.getOrDefault(t.tableId(), 0L))));
      } else if (op.row() instanceof TableColumnStatsRow c && flushed.contains(c.tableId())) {
        throw lost(
            "it flushes table "
                + Long.toUnsignedString(c.tableId())
                + " and rewrites its column statistics");
      } else if (inlined.tables().contains(op.row() instanceof TableStatsRow t ? t.tableId() : -1L)
          || (op.row() instanceof TableColumnStatsRow c
              && inlined.tables().contains(c.tableId()))) {
        // Re-derived by the inline verbs from the head's records.
      } else if (op.row() instanceof TableColumnStatsRow c) {
        if (!appended.containsKey(c.tableId())) {
          throw lost(
              "it rewrites table "
                  + Long.toUnsignedString(c.tableId())
                  + "'s column statistics without adding rows to it");
        }
        // Re-derived below, from the head's and this commit's files.
      } else {
        moved.add(new StagedRows.Insert(move(op.row(), appended, bytes)));
      }
    }
    for (long tableId : appended.keySet()) {
      if (inlined.tables().contains(tableId)) {
        continue;
      }
      for (TableColumnStatsRow c : derivedColumnStats(tableId, files)) {
        moved.add(new StagedRows.Insert(c));
      }
    }
    return new StagedRows(head.getSnapshotId(), moved, inlined.moved(rowShift, stamped, n));
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
        || row instanceof FilesScheduledForDeletionRow
        || row instanceof ColumnMappingRow
        || row instanceof NameMappingRow;
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
          file(f.mappingId()),
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
    if (row instanceof ColumnMappingRow m) {
      // A mapping's id is drawn from next_file_id, as a file's.
      return new ColumnMappingRow(file(m.mappingId()), m.tableId(), m.type());
    }
    if (row instanceof NameMappingRow m) {
      return new NameMappingRow(
          file(m.mappingId()),
          m.columnId(),
          m.sourceName(),
          m.targetFieldId(),
          m.parentColumn(),
          m.isPartition());
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
    throw new IllegalStateException("not moved here: " + row);
  }

  /**
   * Table {@code tableId}'s column statistics after this commit's files, derived as DuckLake
   * derives them when it re-drives the commit: the head's records, each file's statistics merged
   * in, in row id order, by the rules the verb path shares with stock ({@link FileStatsMerge}): a
   * table that held no rows and has no records starts them; a column with a record takes each
   * file's values; a column without one in a table that held rows keeps none.
   */
  private List<TableColumnStatsRow> derivedColumnStats(long tableId, List<DataFileRow> files) {
    List<ColumnValue> columns =
        premise.recordsOf(
            dev.moraine.core.keyspace.key.EntityKind.COLUMN, tableId, ColumnValue.class);
    Set<Long> parents = new HashSet<>();
    columns.forEach(
        c -> {
          if (c.hasParentColumn()) {
            parents.add(c.getParentColumn());
          }
        });
    Map<Long, TableColumnStatsValue> records = new java.util.TreeMap<>();
    for (ColumnValue c : columns) {
      premise
          .recordOf(
              new EntityKey.TableColumnStats(tableId, c.getColumnId()), TableColumnStatsValue.class)
          .ifPresent(v -> records.put(c.getColumnId(), v));
    }
    List<DataFileRow> mine =
        files.stream()
            .filter(f -> f.tableId() == tableId)
            .sorted(Comparator.comparing(f -> f.rowIdStart() == null ? 0L : f.rowIdStart()))
            .toList();
    Long shift = rowShift.get(tableId);
    for (DataFileRow f : mine) {
      long start = (f.rowIdStart() == null ? 0 : f.rowIdStart()) + (shift == null ? 0 : shift);
      boolean starts = start == 0 && records.isEmpty();
      Map<Long, FileColumnStatsRow> byColumn = fileStats.getOrDefault(f.dataFileId(), Map.of());
      for (ColumnValue c : columns) {
        if (parents.contains(c.getColumnId())) {
          continue;
        }
        TableColumnStatsValue before = records.get(c.getColumnId());
        FileColumnStatsRow st = byColumn.get(c.getColumnId());
        if (st == null) {
          if (before != null) {
            throw lost(
                column(tableId, c.getColumnId())
                    + " has no statistics in data file "
                    + Long.toUnsignedString(f.dataFileId()));
          }
          continue;
        }
        if (before == null && !starts) {
          continue;
        }
        records.put(
            c.getColumnId(),
            FileStatsMerge.merge(
                tableId,
                c,
                columns,
                before,
                new NewFileColumnStats(
                    c.getColumnId(),
                    required(st.columnSizeBytes(), st, "column_size_bytes"),
                    required(st.valueCount(), st, "value_count"),
                    required(st.nullCount(), st, "null_count"),
                    Optional.ofNullable(st.minValue()),
                    Optional.ofNullable(st.maxValue()),
                    Optional.ofNullable(st.containsNan()),
                    Optional.ofNullable(st.extraStats()))));
      }
    }
    List<TableColumnStatsRow> out = new ArrayList<>();
    for (TableColumnStatsValue v : records.values()) {
      out.add(
          new TableColumnStatsRow(
              tableId,
              v.getColumnId(),
              v.hasContainsNull() ? v.getContainsNull() : null,
              v.hasContainsNan() ? v.getContainsNan() : null,
              v.hasMinValue() ? v.getMinValue() : null,
              v.hasMaxValue() ? v.getMaxValue() : null,
              v.hasExtraStats() ? v.getExtraStats() : null));
    }
    return out;
  }

  private static String column(long tableId, long columnId) {
    return "column "
        + Long.toUnsignedString(columnId)
        + " of table "
        + Long.toUnsignedString(tableId);
  }

  private long nextRowId(long tableId) {
    return premise.tableStats(tableId).map(TableStats::nextRowId).orElse(0L);
  }

  /** A file id of this commit's range moved by the head's advance; any other as it is. */
  private Long file(Long id) {
    if (id == null || Long.compareUnsigned(id, fileFrom) < 0) {
      return id;
    }
    if (Long.compareUnsigned(id, fileTo) >= 0) {
      throw new InvalidArgumentException(
          "file id "
              + Long.toUnsignedString(id)
              + " was not drawn from next_file_id, which the commit advances to "
              + Long.toUnsignedString(fileTo));
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
