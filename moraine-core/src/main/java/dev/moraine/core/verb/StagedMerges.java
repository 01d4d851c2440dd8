package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The staged-row door's side of DuckLake's {@code ducklake_merge_adjacent_files} (RFC 0006 §13): a
 * merge deletes its input data files outright ({@code DELETE FROM ducklake_data_file}, with their
 * column statistics, partition values and any ended delete file of them), schedules each for
 * deletion, and inserts the merged file backdated to the first input's begin snapshot, so that
 * every snapshot reads the same rows through it. Holds the inputs a commit removes and checks the
 * outputs against them, for {@link StagedTranslation}.
 *
 * <p>The checks: an input is the live row the lake holds, without a live delete file or rows
 * deleted inline (their deletions name the input, which would be gone); each input leaves with all
 * its column statistics, partition values and ended delete files, and is scheduled; the outputs of
 * a partition hold as many rows as its inputs, each begins at the begin snapshot of one of them,
 * and at every snapshot the merged files begun by then hold at least the rows visible there.
 * Confined to the thread running the translation.
 */
final class StagedMerges {
  private final StagedEntities staged;
  private final StagedFileRemovals removals;
  private final StagedBase base;

  /** Table -> input data file id -> its record, in the order given. */
  private final Map<Long, Map<Long, DataFileValue>> inputs = new LinkedHashMap<>();

  /** (table, data file) -> the partition value rows deleted with it. */
  private final Map<List<Long>, List<FilePartitionValueRow>> partitionValues = new HashMap<>();

  /** (table, delete file, end snapshot) of the ended delete files deleted. */
  private final Set<List<Long>> endedDeletes = new HashSet<>();

  /** Merge group ({@link #group}) -> rows the merged files of it hold. */
  private final Map<List<Object>, Long> outputRows = new HashMap<>();

  /** Merge group -> (begin snapshot, rows) of each merged file of it. */
  private final Map<List<Object>, List<long[]>> outputBegins = new HashMap<>();

  StagedMerges(StagedEntities staged, StagedFileRemovals removals, StagedBase base) {
    this.staged = staged;
    this.removals = removals;
    this.base = base;
  }

  /** Whether the commit deletes data files outright: rows of the other kinds then must follow. */
  static boolean isMergeRemoval(StagedRows.Op op) {
    return op instanceof StagedRows.Delete
        && (op.row() instanceof DataFileRow
            || op.row() instanceof FileColumnStatsRow
            || op.row() instanceof FilePartitionValueRow
            || (op.row() instanceof DeleteFileRow d && d.endSnapshot() != null));
  }

  /**
   * Takes the removals of a merge, inputs first: their statistics, partition values and ended
   * delete files are checked against the inputs.
   */
  void remove(List<StagedRows.Delete> deletes) {
    for (StagedRows.Delete d : deletes) {
      if (d.row() instanceof DataFileRow r) {
        removeInput(r);
      }
    }
    for (StagedRows.Delete d : deletes) {
      if (d.row() instanceof FileColumnStatsRow r) {
        removeStats(r);
      } else if (d.row() instanceof FilePartitionValueRow r) {
        input(required(r.tableId(), r, "table_id"), required(r.dataFileId(), r, "data_file_id"));
        partitionValues
            .computeIfAbsent(List.of(r.tableId(), r.dataFileId()), k -> new ArrayList<>())
            .add(r);
      } else if (d.row() instanceof DeleteFileRow r) {
        long tableId = required(r.tableId(), r, "table_id");
        input(tableId, required(r.dataFileId(), r, "data_file_id"));
        if (!endedDeletes.add(
            List.of(
                tableId,
                required(r.deleteFileId(), r, "delete_file_id"),
                required(r.endSnapshot(), r, "end_snapshot")))) {
          throw new InvalidArgumentException("the delete of " + r + " is given twice");
        }
      }
    }
  }

  private void removeInput(DataFileRow r) {
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.dataFileId(), r, "data_file_id");
    TableInfo table = base.liveTable(tableId, r);
    base.refuseIndexed(table, "a merge of data files");
    EntityKey key = new EntityKey.DataFile(tableId, id);
    DataFileValue v =
        staged
            .get(key, DataFileValue.class)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "a delete of data file "
                            + Long.toUnsignedString(id)
                            + ", which table "
                            + Long.toUnsignedString(tableId)
                            + " does not hold live"));
    boolean same =
        r.endSnapshot() == null
            && Long.valueOf(v.getBeginSnapshot()).equals(r.beginSnapshot())
            && v.getPath().equals(r.path())
            && Long.valueOf(v.getRecordCount()).equals(r.recordCount())
            && Objects.equals(v.hasRowIdStart() ? v.getRowIdStart() : null, r.rowIdStart());
    if (!same
        || inputs.computeIfAbsent(tableId, t -> new LinkedHashMap<>()).putIfAbsent(id, v) != null) {
      throw new InvalidArgumentException(
          "the delete of data file "
              + Long.toUnsignedString(id)
              + " is not of the row the lake holds, or is given twice");
    }
    for (DeleteFileValue d :
        staged.list(
            EntityKind.DELETE_FILE,
            tableId,
            DeleteFileValue.class,
            x -> new EntityKey.DeleteFile(tableId, x.getDeleteFileId()))) {
      if (d.getDataFileId() == id) {
        throw new InvalidArgumentException(
            "data file "
                + Long.toUnsignedString(id)
                + " is merged away while its delete file "
                + Long.toUnsignedString(d.getDeleteFileId())
                + " is live: its deleted rows would come back");
      }
    }
    if (InlineTableState.read(staged.premise(), tableId).fileDeletes.keySet().stream()
        .anyMatch(k -> k.get(0) == id)) {
      throw new InvalidArgumentException(
          "data file "
              + Long.toUnsignedString(id)
              + " has rows deleted inline; it can be merged once they are flushed");
    }
    removals.removeOutright(key, tableId, id, v.getPath(), v.getPathIsRelative());
  }

  private void removeStats(FileColumnStatsRow r) {
    long tableId = required(r.tableId(), r, "table_id");
    long fileId = required(r.dataFileId(), r, "data_file_id");
    long columnId = required(r.columnId(), r, "column_id");
    input(tableId, fileId);
    EntityKey key = new EntityKey.FileColumnStats(tableId, fileId, columnId);
    if (staged.get(key, FileColumnStatsValue.class).isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "a delete of the statistics of column "
              + Long.toUnsignedString(columnId)
              + " of data file "
              + Long.toUnsignedString(fileId)
              + ", which the lake does not hold");
    }
    staged.delete(key);
  }

  /**
   * The input {@code fileId} of {@code tableId} this commit removes; refused if it removes none.
   */
  private DataFileValue input(long tableId, long fileId) {
    DataFileValue v = inputs.getOrDefault(tableId, Map.of()).get(fileId);
    if (v == null) {
      throw new InvalidArgumentException(
          "rows of data file "
              + Long.toUnsignedString(fileId)
              + " of table "
              + Long.toUnsignedString(tableId)
              + " are deleted without the file: the door deletes a data file's rows outright only"
              + " as DuckLake's merge of it");
    }
    return v;
  }

  /** Whether {@code r}, which does not begin at the commit's snapshot, is a merged file. */
  boolean isOutput(DataFileRow r) {
    return r.tableId() != null && inputs.containsKey(r.tableId());
  }

  /**
   * Checks the merged file {@code r} against its table's inputs and returns one of those it merged:
   * it lies in their partition (id and values) and begins at the begin snapshot of one of them
   * (DuckLake backdates a merged file to its first input's; it may split a partition's inputs among
   * several merged files).
   */
  DataFileValue output(DataFileRow r, List<FilePartitionValueRow> values) {
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.dataFileId(), r, "data_file_id");
    long begin = required(r.beginSnapshot(), r, "begin_snapshot");
    List<String> given = new ArrayList<>();
    (values == null ? List.<FilePartitionValueRow>of() : values)
        .stream()
            .sorted(Comparator.comparing(FilePartitionValueRow::partitionKeyIndex))
            .forEach(v -> given.add(v.partitionValue()));
    DataFileValue match = null;
    for (DataFileValue in : inputs.get(tableId).values()) {
      boolean sameId =
          in.hasPartitionId()
              ? Long.valueOf(in.getPartitionId()).equals(r.partitionId())
              : r.partitionId() == null;
      if (sameId && valuesOf(in).equals(given)) {
        if (match == null || in.getBeginSnapshot() == begin) {
          match = in;
        }
      }
    }
    if (match == null) {
      throw new InvalidArgumentException(
          "merged data file "
              + Long.toUnsignedString(id)
              + " lies in partition "
              + r.partitionId()
              + " "
              + given
              + ", which none of its inputs does");
    }
    if (match.getBeginSnapshot() != begin) {
      throw new InvalidArgumentException(
          "merged data file "
              + Long.toUnsignedString(id)
              + " begins at "
              + begin
              + ", at no begin snapshot of the inputs of its partition");
    }
    outputRows.merge(
        group(tableId, match), required(r.recordCount(), r, "record_count"), Long::sum);
    outputBegins
        .computeIfAbsent(group(tableId, match), g -> new ArrayList<>())
        .add(new long[] {begin, r.recordCount()});
    return match;
  }

  /** The partition values of {@code f}, by key index. */
  private static List<String> valuesOf(DataFileValue f) {
    return f.getPartitionValuesList().stream().map(FilePartitionValue::getPartitionValue).toList();
  }

  /** The merge group of {@code f}: its table, partition id and partition values. */
  private static List<Object> group(long tableId, DataFileValue f) {
    return List.of(tableId, f.hasPartitionId() ? f.getPartitionId() : -1L, valuesOf(f));
  }

  /**
   * Checks that each input left whole (statistics, partition values, ended delete files, its
   * schedule) and that each table's merged files hold its inputs' rows.
   */
  void requireComplete() {
    for (Map.Entry<Long, Map<Long, DataFileValue>> e : inputs.entrySet()) {
      long tableId = e.getKey();
      Map<List<Object>, Long> rows = new HashMap<>();
      for (DataFileValue in : e.getValue().values()) {
        long id = in.getDataFileId();
        rows.merge(group(tableId, in), in.getRecordCount(), Long::sum);
        if (!removals.isScheduled(id)) {
          throw new InvalidArgumentException(
              "merged data file "
                  + Long.toUnsignedString(id)
                  + " has no ducklake_files_scheduled_for_deletion row");
        }
        List<FilePartitionValueRow> values =
            partitionValues.getOrDefault(List.of(tableId, id), List.of());
        List<String> gone =
            values.stream()
                .sorted(Comparator.comparing(FilePartitionValueRow::partitionKeyIndex))
                .map(FilePartitionValueRow::partitionValue)
                .toList();
        List<String> held = valuesOf(in);
        if (!gone.equals(held)) {
          throw new InvalidArgumentException(
              "merged data file "
                  + Long.toUnsignedString(id)
                  + " leaves with partition values "
                  + gone
                  + ", not its own "
                  + held);
        }
      }
      for (FileColumnStatsValue st :
          staged.list(
              EntityKind.FILE_COLUMN_STATS,
              tableId,
              FileColumnStatsValue.class,
              v -> new EntityKey.FileColumnStats(tableId, v.getDataFileId(), v.getColumnId()))) {
        if (e.getValue().containsKey(st.getDataFileId())) {
          throw new InvalidArgumentException(
              "merged data file "
                  + Long.toUnsignedString(st.getDataFileId())
                  + " keeps the statistics of column "
                  + Long.toUnsignedString(st.getColumnId()));
        }
      }
      Set<List<Long>> ended = new HashSet<>();
      for (HistoryKey k :
          CompactionVerbs.endedDeleteFiles(staged, tableId, e.getValue().keySet())) {
        EntityKey.DeleteFile d = (EntityKey.DeleteFile) k.entity();
        ended.add(List.of(tableId, d.deleteFileId(), k.endSnapshot()));
        removals.writes().removeHistory(k);
      }
      Set<List<Long>> given = new HashSet<>();
      endedDeletes.stream().filter(k -> k.get(0) == tableId).forEach(given::add);
      if (!ended.equals(given)) {
        throw new InvalidArgumentException(
            "the merge of table "
                + Long.toUnsignedString(tableId)
                + " deletes ended delete files "
                + given
                + " where its inputs have "
                + ended);
      }
      Map<List<Object>, List<long[]>> inputBegins = new HashMap<>();
      for (DataFileValue in : e.getValue().values()) {
        inputBegins
            .computeIfAbsent(group(tableId, in), g -> new ArrayList<>())
            .add(new long[] {in.getBeginSnapshot(), in.getRecordCount()});
      }
      inputBegins.forEach(
          (g, in) ->
              requireCovered(
                  "the merged files of table " + Long.toUnsignedString(tableId),
                  in,
                  outputBegins.getOrDefault(g, List.of())));
      for (Map.Entry<List<Object>, Long> g : rows.entrySet()) {
        long merged = outputRows.getOrDefault(g.getKey(), 0L);
        if (merged != g.getValue()) {
          throw new InvalidArgumentException(
              "the merged files of table "
                  + Long.toUnsignedString(tableId)
                  + " in partition "
                  + g.getKey().subList(1, 3)
                  + " hold "
                  + merged
                  + " rows, their inputs "
                  + g.getValue()
                  + "; a merge neither adds nor drops rows");
        }
      }
    }
    for (List<Long> k : endedDeletes) {
      if (!inputs.containsKey(k.get(0))) {
        throw new InvalidArgumentException(
            "ended delete file " + k.get(1) + " is deleted without a merge of its data file");
      }
    }
  }

  /**
   * Refuses backdated files ({@code outputs}, each a begin snapshot and a row count) that replace
   * {@code inputs} (likewise) unless every snapshot an input's rows were visible at sees at least
   * as many rows in the files begun by then: a file begun later than rows it holds would hide them
   * from time travel to the snapshots between.
   */
  static void requireCovered(String what, List<long[]> inputs, List<long[]> outputs) {
    for (long[] at : inputs) {
      long needed = 0;
      for (long[] in : inputs) {
        if (Long.compareUnsigned(in[0], at[0]) <= 0) {
          needed += in[1];
        }
      }
      long held = 0;
      for (long[] out : outputs) {
        if (Long.compareUnsigned(out[0], at[0]) <= 0) {
          held += out[1];
        }
      }
      if (held < needed) {
        throw new InvalidArgumentException(
            what
                + " begun by snapshot "
                + Long.toUnsignedString(at[0])
                + " hold "
                + held
                + " rows, but "
                + needed
                + " rows they take the place of were visible there");
      }
    }
  }
}
