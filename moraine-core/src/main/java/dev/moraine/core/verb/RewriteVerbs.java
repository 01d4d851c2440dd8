package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.inline.ExactTableStats;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Rewriting data files without their deleted rows, as stock DuckLake's {@code
 * ducklake_rewrite_data_files} records it (RFC 0005 §6): the inputs and their delete files end at
 * the new snapshot, the output begins there holding the surviving rows under their own ids, and the
 * table's statistics are counted afresh when no deletion is left on it. {@link
 * Transaction#rewriteDataFiles} documents the contract.
 */
public final class RewriteVerbs {
  private final VerbState s;
  private final DataFileVerbs dataFiles;
  private final InlineRun inlineRun;

  public RewriteVerbs(VerbState state, DataFileVerbs dataFiles, InlineRun inlineRun) {
    this.s = state;
    this.dataFiles = dataFiles;
    this.inlineRun = inlineRun;
  }

  public long rewrite(long tableId, List<Long> inputIds, NewDataFile output) {
    if (inputIds == null || output == null) {
      throw new InvalidArgumentException("a rewrite needs its input file ids and its output file");
    }
    s.requireTable(tableId);
    Set<Long> distinct = CompactionVerbs.distinctIds(inputIds);
    if (distinct.isEmpty()) {
      throw new InvalidArgumentException("a rewrite needs at least one input file");
    }
    String refused =
        inlineRun.insertedRanges.containsKey(tableId)
            ? "inlines rows into"
            : inlineRun.deletedFrom.contains(tableId)
                ? "deletes rows of"
                : inlineRun.flushed.contains(tableId) ? "flushes the inlined data of" : null;
    if (refused == null && distinct.stream().anyMatch(s.deletedDataFileIds::contains)) {
      refused = "registers a delete file for an input of";
    }
    if (refused != null) {
      throw new InvalidArgumentException(
          "this commit "
              + refused
              + " table "
              + Long.toUnsignedString(tableId)
              + "; rewrite its files in another commit");
    }
    List<DataFileValue> inputs = CompactionVerbs.liveInputs(s, tableId, distinct);
    Map<Long, DeleteFileValue> deleteFiles = new HashMap<>();
    for (DeleteFileValue d : s.deleteFileRecords(tableId)) {
      deleteFiles.put(d.getDataFileId(), d);
    }
    Map<Long, Long> inlineDeleted = new HashMap<>();
    for (List<Long> deleted : inlineRun.premiseState(tableId).fileDeletes.keySet()) {
      inlineDeleted.merge(deleted.get(0), 1L, Long::sum);
    }
    DataFileValue first = inputs.get(0);
    long survivors = 0;
    for (DataFileValue in : inputs) {
      long id = in.getDataFileId();
      DeleteFileValue d = deleteFiles.get(id);
      long deleted = (d == null ? 0 : d.getDeleteCount()) + inlineDeleted.getOrDefault(id, 0L);
      if (deleted == 0) {
        throw new InvalidArgumentException(
            "input file "
                + Long.toUnsignedString(id)
                + " has no deleted rows; a rewrite takes files with deletions, as stock DuckLake's"
                + " does (merge files without them)");
      }
      CompactionVerbs.samePartition(first, in);
      survivors +=
          Long.compareUnsigned(deleted, in.getRecordCount()) >= 0
              ? 0
              : in.getRecordCount() - deleted;
    }
    if (survivors == 0) {
      throw new InvalidArgumentException(
          "no row of the inputs survives their deletions; there is nothing to rewrite");
    }
    CompactionVerbs.samePartitionValues(first, output, "rewritten");
    if (output.recordCount() != survivors) {
      throw new InvalidArgumentException(
          "the rewritten file holds "
              + output.recordCount()
              + " rows, its inputs "
              + survivors
              + " that are not deleted; a rewrite keeps exactly those");
    }
    dataFiles.checkFile(tableId, output);
    // The fresh statistics are counted before anything is staged: counting reads the inlined rows,
    // and nothing may be staged by a verb that then fails.
    Optional<ExactTableStats> counted = recount(tableId, distinct, output, inlineDeleted.keySet());
    TableStatsValue stats = s.requireStats(tableId);
    // Everything is checked above; from here on the verb only stages. The inputs and their delete
    // files end here (older snapshots keep reading them); their inlined row deletions stay, for
    // the same snapshots.
    for (DataFileValue in : inputs) {
      s.staged.delete(new EntityKey.DataFile(tableId, in.getDataFileId()));
      DeleteFileValue d = deleteFiles.get(in.getDataFileId());
      if (d != null) {
        s.staged.delete(new EntityKey.DeleteFile(tableId, d.getDeleteFileId()));
      }
    }
    long fileId = s.nextFileId++;
    s.staged.put(
        new EntityKey.DataFile(tableId, fileId),
        CompactionVerbs.outputRecord(tableId, fileId, s.newSnapshotId, first, output).build());
    dataFiles.stageFileColumnStats(tableId, fileId, output.columnStats());
    counted.ifPresent(c -> stageCounted(tableId, stats, c));
    s.record(
        DuckLakeOperation.REWRITE_DELETES,
        new ChangeEntry.ById(ChangeKind.REWRITE_DELETE, tableId));
    return fileId;
  }

  /**
   * The table's statistics counted afresh over what the rewrite leaves (the live files but the
   * inputs, and the output), when it leaves no live data file with deletions (stock DuckLake's
   * gate: only then are the files' statistics exact); empty otherwise, and the statistics stay as
   * they are, record count included. {@code inlineDeleted} holds the files with inlined row
   * deletions. Stages nothing.
   */
  private Optional<ExactTableStats> recount(
      long tableId, Set<Long> inputs, NewDataFile output, Set<Long> inlineDeleted) {
    List<DataFileValue> left = new ArrayList<>();
    for (DataFileValue f : s.dataFileRecords(tableId)) {
      if (!inputs.contains(f.getDataFileId())) {
        left.add(f);
      }
    }
    Set<Long> withDeleteFile = new HashSet<>();
    s.deleteFileRecords(tableId).forEach(d -> withDeleteFile.add(d.getDataFileId()));
    for (DataFileValue f : left) {
      long id = f.getDataFileId();
      if (withDeleteFile.contains(id) || inlineDeleted.contains(id)) {
        return Optional.empty();
      }
    }
    List<ColumnValue> columns = s.columnRecords(tableId);
    ExactTableStats counted = new ExactTableStats(columns);
    Map<Long, List<FileColumnStatsValue>> fileStats = new HashMap<>();
    for (FileColumnStatsValue st :
        s.staged.list(
            EntityKind.FILE_COLUMN_STATS,
            tableId,
            FileColumnStatsValue.class,
            v -> new EntityKey.FileColumnStats(tableId, v.getDataFileId(), v.getColumnId()))) {
      fileStats.computeIfAbsent(st.getDataFileId(), k -> new ArrayList<>()).add(st);
    }
    for (DataFileValue f : left) {
      counted.addFile(f, fileStats.getOrDefault(f.getDataFileId(), List.of()));
    }
    counted.addFile(
        output.recordCount(),
        output.fileSizeBytes(),
        output.columnStats().stream()
            .map(st -> DataFileVerbs.fileColumnStatsRecord(tableId, 0, st))
            .toList());
    Map<Long, String> types = new HashMap<>();
    columns.forEach(c -> types.put(c.getColumnId(), c.getColumnType()));
    long at = s.staged.premise().snapshotId();
    List<InlinedRows.Row> inlined =
        s.staged
            .premise()
            .loadFor(v -> InlineRowsReader.read(v, tableId, at).withColumnTypes(types).rows());
    return counted.addInlinedRows(inlined) ? Optional.of(counted) : Optional.empty();
  }

  /** Stages the counted statistics over the table's record and its column records. */
  private void stageCounted(long tableId, TableStatsValue stats, ExactTableStats counted) {
    s.staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setRecordCount(counted.recordCount())
            .setFileSizeBytes(counted.fileSizeBytes())
            .build());
    for (TableColumnStatsValue before : s.tableColumnStatsRecords(tableId)) {
      s.staged.put(
          new EntityKey.TableColumnStats(tableId, before.getColumnId()), counted.recounted(before));
    }
  }
}
