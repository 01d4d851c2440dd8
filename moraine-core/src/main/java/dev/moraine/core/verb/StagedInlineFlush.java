package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.proto.InlineSchemaDroppedValue;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's side of DuckLake's {@code ducklake_flush_inlined_data} (RFC 0006 §13): the
 * flush deletes every inlined row of a table and every inlined deletion of its data files' rows
 * (each given as a {@link StagedRows.InlinedRemoval} or {@link
 * StagedRows.InlinedFileDeleteRemoval}), inserts the data files holding those rows backdated to the
 * snapshots they were inlined at, the delete files of the rows deleted while inlined and of the
 * data-file rows deleted inline, and drops the registrations of the table's older inlined-data
 * tables. Here the removals are checked to be all of the table's inlined rows and deletions, and
 * the lake's chunks, locators, tombstones and inlined deletions of the table are deleted; the files
 * are checked against what was removed: as many rows in the flushed files as rows removed, each
 * flushed file beginning at a snapshot rows were inlined at, and the delete files at the snapshots
 * of the deletions they hold, as many as there were.
 *
 * <p>Confined to the thread running the translation.
 */
final class StagedInlineFlush {
  private final StagedEntities staged;
  private final InlineWrites inline;
  private final InlineRun run;
  private final StagedBase base;

  /** Tables flushed, with the inlined rows removed (each row version counted). */
  private final Map<Long, Long> removedRows = new LinkedHashMap<>();

  /** Table -> the snapshots its removed rows were inlined at. */
  private final Map<Long, Set<Long>> rowBegins = new HashMap<>();

  /** Table -> the snapshots its removed rows were deleted at, and how many were. */
  private final Map<Long, Set<Long>> rowEnds = new HashMap<>();

  private final Map<Long, Long> endedRows = new HashMap<>();

  /** (table, data file) -> the snapshots its rows were deleted inline at, one per row. */
  private final Map<List<Long>, List<Long>> fileDeletes = new HashMap<>();

  /** Table -> rows the flushed files hold, and rows their delete files delete. */
  private final Map<Long, Long> outputRows = new HashMap<>();

  private final Map<Long, Long> outputDeletes = new HashMap<>();

  /** Table -> (begin snapshot, rows) of the removed chunks, and of the flushed files. */
  private final Map<Long, List<long[]>> inputBegins = new HashMap<>();

  private final Map<Long, List<long[]>> outputBegins = new HashMap<>();

  /** (table, data file) given a delete file of its inline deletions. */
  private final Set<List<Long>> fileDeleteFiles = new HashSet<>();

  StagedInlineFlush(VerbState state, StagedBase base) {
    this.staged = state.staged;
    this.inline = state.inline;
    this.run = new InlineRun(state);
    this.base = base;
  }

  /** Whether {@code op} is part of a flush: a removal from an inlined table. */
  static boolean isRemoval(StagedRows.InlinedOp op) {
    return op instanceof StagedRows.InlinedRemoval
        || op instanceof StagedRows.InlinedFileDeleteRemoval;
  }

  /** Whether the commit flushes table {@code tableId}. */
  boolean flushes(long tableId) {
    return removedRows.containsKey(tableId);
  }

  /** Takes the removals of the commit's flushes; each flushed table loses all it had inlined. */
  void remove(List<StagedRows.InlinedOp> ops) {
    Map<Long, Set<List<Long>>> rows = new LinkedHashMap<>();
    Map<Long, Set<List<Long>>> deletes = new LinkedHashMap<>();
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedRemoval r) {
        if (!rows.computeIfAbsent(r.tableId(), t -> new HashSet<>())
            .add(List.of(r.schemaVersion(), r.rowId(), r.beginSnapshot()))) {
          throw new InvalidArgumentException("an inlined row removal is given twice: " + r);
        }
        deletes.computeIfAbsent(r.tableId(), t -> new HashSet<>());
      } else if (op instanceof StagedRows.InlinedFileDeleteRemoval d) {
        if (!deletes
            .computeIfAbsent(d.tableId(), t -> new HashSet<>())
            .add(List.of(d.dataFileId(), d.position()))) {
          throw new InvalidArgumentException("an inlined deletion removal is given twice: " + d);
        }
        rows.computeIfAbsent(d.tableId(), t -> new HashSet<>());
      }
    }
    for (long tableId : rows.keySet()) {
      TableInfo table = base.liveTable(tableId, "a flush of inlined rows");
      base.refuseIndexed(table, "a flush of inlined rows");
      InlineTableState state = InlineTableState.read(staged.premise(), tableId);
      // The flush read the table's inlined rows at some snapshot: every row begun by then is
      // removed, the last removed row's begin being the latest such. Rows inlined after it (by a
      // commit the flush was rebased past) stay inlined, as in DuckLake's re-driven flush.
      long through =
          rows.get(tableId).stream().mapToLong(r -> r.get(2)).max().orElse(Long.MIN_VALUE);
      List<InlineTableState.Chunk> drained = new ArrayList<>();
      Set<List<Long>> held = new HashSet<>();
      Set<Long> heldIds = new HashSet<>();
      Set<Long> begins = new HashSet<>();
      long count = 0;
      for (InlineTableState.Chunk c : state.chunks) {
        if (through == Long.MIN_VALUE || c.op().beginSnapshot() > through) {
          continue;
        }
        drained.add(c);
        inputBegins
            .computeIfAbsent(tableId, t -> new ArrayList<>())
            .add(new long[] {c.op().beginSnapshot(), c.rowCount()});
        for (long k = 0; k < c.rowCount(); k++) {
          held.add(List.of(c.op().schemaVersion(), c.rowIdStart() + k, c.op().beginSnapshot()));
          heldIds.add(c.rowIdStart() + k);
          count++;
        }
        begins.add(c.op().beginSnapshot());
      }
      if (!held.equals(rows.get(tableId))
          || !state.fileDeletes.keySet().equals(deletes.get(tableId))) {
        throw new InvalidArgumentException(
            "the flush of table "
                + Long.toUnsignedString(tableId)
                + " removes "
                + rows.get(tableId).size()
                + " inlined rows and "
                + deletes.get(tableId).size()
                + " inlined deletions; the lake holds "
                + held.size()
                + " begun by the last of them and "
                + state.fileDeletes.size()
                + ", and a flush removes them all");
      }
      // Checked: what the flush read leaves the inline subspace.
      Set<List<Long>> drainedKeys = new HashSet<>();
      for (InlineTableState.Chunk c : drained) {
        inline.delete(InlineKey.Record.live(c.op()));
        drainedKeys.add(List.of(c.op().schemaVersion(), c.op().beginSnapshot(), c.op().chunkSeq()));
      }
      for (InlineKey.ChunkLocator l : state.locators) {
        if (drainedKeys.contains(List.of(l.schemaVersion(), l.beginSnapshot(), l.chunkSeq()))) {
          inline.delete(l);
        }
      }
      Set<Long> ends = new HashSet<>();
      long ended = 0;
      for (InlineKey.RowTombstone t : state.tombstones) {
        if (heldIds.contains(t.rowId())) {
          inline.delete(t);
          ends.add(t.endSnapshot());
          ended++;
        }
      }
      for (Map.Entry<List<Long>, Long> e : state.fileDeletes.entrySet()) {
        inline.delete(
            InlineKey.Record.live(
                new InlineOp.FileDelete(tableId, e.getKey().get(0), e.getKey().get(1))));
        fileDeletes
            .computeIfAbsent(List.of(tableId, e.getKey().get(0)), k -> new ArrayList<>())
            .add(e.getValue());
      }
      removedRows.put(tableId, count);
      rowBegins.put(tableId, begins);
      rowEnds.put(tableId, ends);
      endedRows.put(tableId, ended);
    }
  }

  /** The tables {@code ops} flush: those with removals from their inlined tables. */
  static Set<Long> flushedTables(List<StagedRows.InlinedOp> ops) {
    Set<Long> out = new java.util.TreeSet<>();
    for (StagedRows.InlinedOp op : ops) {
      if (isRemoval(op)) {
        out.add(op.tableId());
      }
    }
    return out;
  }

  /**
   * Drops the registration of each inlined-data table a {@code ducklake_inlined_data_tables} delete
   * names, as a flush drops them: a registered table under DuckLake's name for it, not the newest
   * of its table, and empty once this commit lands (its rows flushed now or before). Stock
   * DuckLake's flush drops such emptied tables of every table, not only of the ones it flushes.
   */
  void deregister(List<InlinedDataTablesRow> rows) {
    for (InlinedDataTablesRow r : rows) {
      long tableId = required(r.tableId(), r, "table_id");
      long version = required(r.schemaVersion(), r, "schema_version");
      List<Long> registered = run.registeredVersions(tableId);
      boolean empty =
          flushes(tableId)
              || InlineTableState.read(staged.premise(), tableId).chunks.stream()
                  .noneMatch(c -> c.op().schemaVersion() == version);
      if (!DuckLakeTables.inlinedDataTableName(tableId, version).equals(r.tableName())
          || !registered.contains(version)
          || registered.get(registered.size() - 1) == version
          || !empty) {
        throw new InvalidArgumentException(
            "the delete of "
                + r
                + ": the door drops an inlined-data table's registration only as a flush does,"
                + " for a registered one, not its table's newest, empty once the commit lands");
      }
      inline.put(
          new InlineKey.SchemaDropped(tableId, version),
          InlineSchemaDroppedValue.getDefaultInstance());
    }
  }

  /** Whether {@code r}, which does not begin at the commit's snapshot, is a flushed file. */
  boolean isOutput(DataFileRow r) {
    return r.tableId() != null
        && flushes(r.tableId())
        && rowBegins.get(r.tableId()).contains(r.beginSnapshot());
  }

  /** Counts the rows of the flushed file {@code r}. */
  void output(DataFileRow r) {
    outputRows.merge(r.tableId(), required(r.recordCount(), r, "record_count"), Long::sum);
    outputBegins
        .computeIfAbsent(r.tableId(), t -> new ArrayList<>())
        .add(new long[] {required(r.beginSnapshot(), r, "begin_snapshot"), r.recordCount()});
  }

  /**
   * Whether a delete file of {@code target} beginning at {@code begin} is one this commit's flush
   * writes, counting its deletions if so: for a flushed file ({@code targetIsNew}), its rows
   * deleted while inlined, begun at one of their deletions; for a data file with rows deleted
   * inline, those rows, begun at the first deletion of them, as many as there were.
   */
  boolean takesDeleteFile(
      long tableId, long target, boolean targetIsNew, long begin, long deleteCount) {
    if (!flushes(tableId)) {
      return false;
    }
    if (targetIsNew) {
      if (!rowEnds.get(tableId).contains(begin)) {
        return false;
      }
      outputDeletes.merge(tableId, deleteCount, Long::sum);
      return true;
    }
    List<Long> begins = fileDeletes.get(List.of(tableId, target));
    if (begins == null
        || begin != begins.stream().min(Long::compareUnsigned).orElseThrow()
        || deleteCount != begins.size()
        || !fileDeleteFiles.add(List.of(tableId, target))) {
      return false;
    }
    return true;
  }

  /** The first snapshot that deleted a row of {@code target} inline, if this commit flushes any. */
  java.util.Optional<Long> firstInlineDeletion(long tableId, long target) {
    List<Long> begins = fileDeletes.get(List.of(tableId, target));
    return begins == null ? java.util.Optional.empty() : begins.stream().min(Long::compareUnsigned);
  }

  /**
   * Counts a replacement of data file {@code target}'s delete file (of {@code replacedCount}
   * deletions) by one of {@code deleteCount} as holding its rows this commit's flush moves out of
   * the inline subspace: DuckLake's flush folds them into the file's delete file.
   */
  void replacement(long tableId, long target, long deleteCount, long replacedCount) {
    List<Long> begins = fileDeletes.get(List.of(tableId, target));
    if (begins == null) {
      return;
    }
    if (deleteCount != replacedCount + begins.size()
        || !fileDeleteFiles.add(List.of(tableId, target))) {
      throw new InvalidArgumentException(
          "the delete file replacing data file "
              + Long.toUnsignedString(target)
              + "'s deletes "
              + deleteCount
              + " rows: the "
              + replacedCount
              + " of the one it replaces and the "
              + begins.size()
              + " the flush moves out of the inline deletions add up otherwise");
    }
  }

  /**
   * Checks that each flushed table's rows went into its flushed files, its rows deleted while
   * inlined into their delete files, and each data file's inline deletions into a delete file.
   */
  void requireComplete() {
    for (Map.Entry<Long, Long> e : removedRows.entrySet()) {
      long tableId = e.getKey();
      String table = Long.toUnsignedString(tableId);
      if (outputRows.getOrDefault(tableId, 0L).longValue() != e.getValue()) {
        throw new InvalidArgumentException(
            "the flushed files of table "
                + table
                + " hold "
                + outputRows.getOrDefault(tableId, 0L)
                + " rows; the flush removes "
                + e.getValue()
                + " inlined rows (deleted ones included)");
      }
      StagedMerges.requireCovered(
          "the flushed files of table " + table,
          inputBegins.getOrDefault(tableId, List.of()),
          outputBegins.getOrDefault(tableId, List.of()));
      if (outputDeletes.getOrDefault(tableId, 0L).longValue() != endedRows.get(tableId)) {
        throw new InvalidArgumentException(
            "the delete files of table "
                + table
                + "'s flushed files delete "
                + outputDeletes.getOrDefault(tableId, 0L)
                + " rows; "
                + endedRows.get(tableId)
                + " of its inlined rows were deleted");
      }
    }
    for (List<Long> k : fileDeletes.keySet()) {
      if (!fileDeleteFiles.contains(k)) {
        throw new InvalidArgumentException(
            "the flush removes the inlined deletions of data file "
                + Long.toUnsignedString(k.get(1))
                + " without the delete file that holds them");
      }
    }
  }
}
