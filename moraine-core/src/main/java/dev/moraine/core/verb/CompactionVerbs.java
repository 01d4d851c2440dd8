package dev.moraine.core.verb;

import dev.moraine.core.catalog.CompactionInputNotLiveException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Merging data files as stock DuckLake's {@code ducklake_merge_adjacent_files} records it (RFC 0005
 * §2): the output replaces its inputs at every snapshot, keeps their row ids, and changes no table
 * statistic; {@link Transaction#mergeDataFiles} documents the contract.
 */
public final class CompactionVerbs {
  private final VerbState s;
  private final DataFileVerbs dataFiles;

  private final InlineRun inlineRun;

  public CompactionVerbs(VerbState state, DataFileVerbs dataFiles, InlineRun inlineRun) {
    this.s = state;
    this.dataFiles = dataFiles;
    this.inlineRun = inlineRun;
  }

  public long merge(long tableId, List<Long> inputIds, NewDataFile output) {
    if (inputIds == null || output == null) {
      throw new InvalidArgumentException("a merge needs its input file ids and its output file");
    }
    TableValue table = s.requireTable(tableId);
    Set<Long> distinct = distinctIds(inputIds);
    if (distinct.size() < 2) {
      throw new InvalidArgumentException("a merge needs at least two input files");
    }
    List<DataFileValue> inputs = liveInputs(s, tableId, distinct);
    for (DeleteFileValue d : s.deleteFileRecords(tableId)) {
      if (distinct.contains(d.getDataFileId())) {
        throw new InvalidArgumentException(
            "input file "
                + Long.toUnsignedString(d.getDataFileId())
                + " has live delete file "
                + Long.toUnsignedString(d.getDeleteFileId())
                + "; a merge takes only files without deletions, as stock DuckLake's does");
      }
    }
    // Rows of an input deleted inline name the input by id: merged away, the deletions would
    // name nothing and the rows would come back. Such inputs wait for a flush (which writes their
    // delete file), as inputs with a delete file do.
    for (List<Long> deleted : inlineRun.premiseState(tableId).fileDeletes.keySet()) {
      if (distinct.contains(deleted.get(0))) {
        throw new InvalidArgumentException(
            "input file "
                + Long.toUnsignedString(deleted.get(0))
                + " has rows deleted inline; flush the table's inlined data before merging it");
      }
    }
    if (inlineRun.deletedFrom.contains(tableId)) {
      throw new InvalidArgumentException(
          "this commit deletes rows of table "
              + Long.toUnsignedString(tableId)
              + " inline; merge its files in another commit");
    }
    DataFileValue first = inputs.get(0);
    long rows = 0;
    long begin = first.getBeginSnapshot();
    long partialMax = 0;
    for (DataFileValue in : inputs) {
      samePartition(first, in);
      rows += in.getRecordCount();
      begin =
          Long.compareUnsigned(in.getBeginSnapshot(), begin) < 0 ? in.getBeginSnapshot() : begin;
      // Stock DuckLake marks a file holding rows of several snapshots with the last of them.
      long last = in.hasPartialMax() ? in.getPartialMax() : in.getBeginSnapshot();
      partialMax = Long.compareUnsigned(last, partialMax) > 0 ? last : partialMax;
    }
    samePartitionValues(first, output, "merged");
    if (output.recordCount() != rows) {
      throw new InvalidArgumentException(
          "the merged file holds "
              + output.recordCount()
              + " rows, its inputs "
              + rows
              + "; a merge neither adds nor drops rows");
    }
    dataFiles.checkFile(tableId, output);
    List<EntityKey> inputStats = inputColumnStats(tableId, distinct);
    List<HistoryKey> endedDeletes = endedDeleteFiles(s.staged, tableId, distinct);
    SchemaValue schema = s.requireSchema(table.getSchemaId());
    // Everything is checked above; from here on the verb only stages.
    for (DataFileValue in : inputs) {
      EntityKey key = new EntityKey.DataFile(tableId, in.getDataFileId());
      s.staged.delete(key);
      s.compaction.removeWithoutHistory(key);
      scheduleInput(schema, table, in);
    }
    inputStats.forEach(s.staged::delete);
    endedDeletes.forEach(s.compaction::removeHistory);
    long fileId = s.nextFileId++;
    DataFileValue.Builder merged =
        outputRecord(tableId, fileId, begin, first, output).setPartialMax(partialMax);
    contiguousStart(inputs).ifPresent(merged::setRowIdStart);
    s.staged.put(new EntityKey.DataFile(tableId, fileId), merged.build());
    dataFiles.stageFileColumnStats(tableId, fileId, output.columnStats());
    s.record(
        DuckLakeOperation.MERGE_ADJACENT_FILES,
        new ChangeEntry.ById(ChangeKind.MERGE_ADJACENT, tableId));
    return fileId;
  }

  /** Schedules an input for deletion under the path stock DuckLake records there. */
  private void scheduleInput(SchemaValue schema, TableValue table, DataFileValue in) {
    GcFileValue v =
        SchedulePaths.of(schema, table, in.getDataFileId(), in.getPath(), in.getPathIsRelative())
            .build();
    s.compaction.schedule(v.getDataFileId(), v.getPath(), v.getPathIsRelative());
  }

  /** Refuses an output whose partition values are not those of the inputs ({@code first}'s). */
  static void samePartitionValues(DataFileValue first, NewDataFile output, String what) {
    List<String> values =
        first.getPartitionValuesList().stream().map(FilePartitionValue::getPartitionValue).toList();
    if (!output.partitionValues().equals(values)) {
      throw new InvalidArgumentException(
          "the "
              + what
              + " file's partition values "
              + output.partitionValues()
              + " are not its inputs' "
              + values);
    }
  }

  /**
   * The data file record of a compaction's output: id {@code fileId}, beginning at {@code begin},
   * in the partition of the inputs ({@code first}'s).
   */
  static DataFileValue.Builder outputRecord(
      long tableId, long fileId, long begin, DataFileValue first, NewDataFile output) {
    DataFileValue.Builder b =
        DataFileValue.newBuilder()
            .setDataFileId(fileId)
            .setTableId(tableId)
            .setBeginSnapshot(begin)
            .setPath(output.path())
            .setPathIsRelative(output.pathIsRelative())
            .setFileFormat(output.fileFormat())
            .setRecordCount(output.recordCount())
            .setFileSizeBytes(output.fileSizeBytes())
            .setFooterSize(output.footerSize())
            .addAllPartitionValues(first.getPartitionValuesList());
    if (first.hasPartitionId()) {
      b.setPartitionId(first.getPartitionId());
    }
    output.encryptionKey().ifPresent(b::setEncryptionKey);
    return b;
  }

  /** The ids named, in order; refuses a null id and an id named twice. */
  static Set<Long> distinctIds(List<Long> ids) {
    Set<Long> distinct = new LinkedHashSet<>();
    for (Long id : ids) {
      if (id == null || !distinct.add(id)) {
        throw new InvalidArgumentException(
            id == null ? "an input file id is null" : "input file " + id + " is named twice");
      }
    }
    return distinct;
  }

  /** Refuses a compaction whose input {@code in} lies in another partition than {@code first}. */
  static void samePartition(DataFileValue first, DataFileValue in) {
    if (in.hasPartitionId() != first.hasPartitionId()
        || in.getPartitionId() != first.getPartitionId()
        || !in.getPartitionValuesList().equals(first.getPartitionValuesList())) {
      throw new InvalidArgumentException(
          "input files "
              + Long.toUnsignedString(first.getDataFileId())
              + " and "
              + Long.toUnsignedString(in.getDataFileId())
              + " lie in different partitions; a compaction stays within one");
    }
  }

  /**
   * The inputs' records, by row id start; refuses the compaction if any input is not a live data
   * file of the table.
   */
  static List<DataFileValue> liveInputs(VerbState s, long tableId, Set<Long> ids) {
    List<DataFileValue> inputs = new ArrayList<>();
    List<Long> gone = new ArrayList<>();
    for (long id : ids) {
      Optional<DataFileValue> in =
          s.staged.get(new EntityKey.DataFile(tableId, id), DataFileValue.class);
      if (in.isPresent()) {
        inputs.add(in.get());
      } else {
        gone.add(id);
      }
    }
    if (!gone.isEmpty()) {
      throw new CompactionInputNotLiveException(tableId, gone);
    }
    inputs.sort(
        Comparator.comparing(
            (DataFileValue f) -> f.hasRowIdStart() ? f.getRowIdStart() : -1L,
            Long::compareUnsigned));
    return inputs;
  }

  /**
   * The first row id of the merged file when its inputs' row ids form one run (stock DuckLake then
   * records the run's start); empty otherwise, and the file carries each row's id itself.
   */
  private static Optional<Long> contiguousStart(List<DataFileValue> byStart) {
    long next = -1;
    for (DataFileValue in : byStart) {
      if (!in.hasRowIdStart() || (next != -1 && in.getRowIdStart() != next)) {
        return Optional.empty();
      }
      next = in.getRowIdStart() + in.getRecordCount();
    }
    return Optional.of(byStart.get(0).getRowIdStart());
  }

  /** The column statistics records of the inputs, which go with them. */
  private List<EntityKey> inputColumnStats(long tableId, Set<Long> ids) {
    List<EntityKey> keys = new ArrayList<>();
    for (FileColumnStatsValue st :
        s.staged.list(
            EntityKind.FILE_COLUMN_STATS,
            tableId,
            FileColumnStatsValue.class,
            v -> new EntityKey.FileColumnStats(tableId, v.getDataFileId(), v.getColumnId()))) {
      if (ids.contains(st.getDataFileId())) {
        keys.add(new EntityKey.FileColumnStats(tableId, st.getDataFileId(), st.getColumnId()));
      }
    }
    return keys;
  }

  /**
   * The ended versions of delete files that targeted the inputs: stock DuckLake removes every
   * delete file row of a merged input, ended ones included, so no snapshot keeps a delete file
   * whose data file is gone.
   */
  static List<HistoryKey> endedDeleteFiles(StagedEntities staged, long tableId, Set<Long> ids) {
    byte[] prefix = KeyPrefixes.historyOfTable(EntityKind.DELETE_FILE, tableId);
    return staged
        .premise()
        .loadFor(
            v -> {
              List<HistoryKey> out = new ArrayList<>();
              try (KvIterator it = v.scanPrefix(prefix)) {
                while (it.hasNext()) {
                  KeyValue kv = it.next();
                  Key key = KeyCodec.decode(kv.key());
                  DeleteFileValue d = (DeleteFileValue) ValueCodec.decode(key, kv.value());
                  if (ids.contains(d.getDataFileId())) {
                    out.add((HistoryKey) key);
                  }
                }
              }
              return out;
            });
  }
}
