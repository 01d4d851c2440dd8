package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.inline.FileStatsMerge;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.NameMapping;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registering data files: the file id, its row-id range from the table's next row id, its column
 * statistics and partition values; {@link Transaction} documents the verb's contract.
 */
public final class DataFileVerbs {
  private final VerbState s;

  public DataFileVerbs(VerbState state) {
    this.s = state;
  }

  public long register(long tableId, NewDataFile file) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "registerDataFile");
    IndexUpkeep.Derived entries = null;
    if (!indexes.isEmpty() && checkFile(tableId, file) != null && file.recordCount() > 0) {
      // The rows' entries are read and checked before anything is staged; they are taken once
      // the file is.
      entries =
          s.indexes.readFileRows(
              tableId,
              indexes,
              planned(tableId, file, s.newSnapshotId, s.requireStats(tableId).getNextRowId()),
              null,
              true,
              "registerDataFile");
    }
    long fileId = stageFile(tableId, file, s.newSnapshotId, null, null, false, false);
    if (entries != null) {
      s.indexes.take(entries);
    }
    s.record(
        DuckLakeOperation.INSERT_FILE,
        new ChangeEntry.ById(ChangeKind.INSERTED_INTO_TABLE, tableId));
    return fileId;
  }

  /**
   * The record {@code file} will have once registered for {@code tableId}, beginning at {@code
   * beginSnapshot} with its first row id {@code rowIdStart}, as far as reading its rows needs (its
   * own id is not known yet, and reads as 0).
   */
  static DataFileInfo planned(long tableId, NewDataFile file, long beginSnapshot, long rowIdStart) {
    return new DataFileInfo(
        tableId,
        0,
        beginSnapshot,
        OptionalLong.empty(),
        file.path(),
        file.pathIsRelative(),
        file.fileFormat(),
        file.recordCount(),
        file.fileSizeBytes(),
        file.footerSize(),
        OptionalLong.of(rowIdStart),
        OptionalLong.empty(),
        file.encryptionKey(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        List.of());
  }

  /**
   * Registers a file mapped by name: its fields are resolved against the table's live columns
   * first, so a refused mapping stages nothing; the mapping takes the id {@code next_file_id} and
   * the file the one after it, as stock DuckLake numbers them.
   */
  public long registerByName(
      long tableId, NewDataFile file, List<FileField> fields, boolean allowMissing) {
    IndexGuard.refuseRowChange(s, tableId, "registerDataFileByName");
    if (fields == null) {
      throw new InvalidArgumentException("a file mapped by name needs at least one field");
    }
    long fileId = stageFile(tableId, file, s.newSnapshotId, null, fields, allowMissing, false);
    s.record(
        DuckLakeOperation.ADD_DATA_FILES,
        new ChangeEntry.ById(ChangeKind.INSERTED_INTO_TABLE, tableId));
    return fileId;
  }

  /**
   * Stages a data file that takes over rows the table already counts (a flush of inlined rows): the
   * file begins at {@code beginSnapshot}, keeps the row ids from {@code rowIdStart}, and adds only
   * its bytes to the table statistics. Rows inlined before the table was partitioned ({@code
   * unpartitioned}) go into a file without partition values, as stock DuckLake flushes them, even
   * when the table is partitioned now. Records no operation; the caller does.
   */
  /**
   * The checks {@link #stageFlushed} runs before it stages, alone: a flush of several files runs
   * them for every file before it stages the first.
   */
  void checkFlushed(long tableId, NewDataFile file, boolean unpartitioned) {
    checkFile(tableId, file);
    if (!unpartitioned) {
      partitionFor(tableId, file.partitionValues());
    }
  }

  long stageFlushed(
      long tableId, NewDataFile file, long beginSnapshot, long rowIdStart, boolean unpartitioned) {
    if (unpartitioned && !file.partitionValues().isEmpty()) {
      throw new InvalidArgumentException(
          "the flushed rows were inlined before table "
              + Long.toUnsignedString(tableId)
              + " was partitioned; their data file takes no partition values");
    }
    return stageFile(tableId, file, beginSnapshot, rowIdStart, null, false, unpartitioned);
  }

  /**
   * Validates and stages one data file, with its name mapping when {@code fields} is not null. With
   * {@code keptRowIdStart} null the rows are new: they get ids from the table's next row id and
   * count toward its record count. An {@code unpartitioned} file has no partition spec, whatever
   * the table's. Records no operation; the callers do.
   */
  private long stageFile(
      long tableId,
      NewDataFile file,
      long beginSnapshot,
      Long keptRowIdStart,
      List<FileField> fields,
      boolean allowMissing,
      boolean unpartitioned) {
    List<ColumnValue> live = checkFile(tableId, file);
    Long partitionId = unpartitioned ? null : partitionFor(tableId, file.partitionValues());
    List<NameMapping> mapping =
        fields == null ? null : NameMappings.resolve(tableId, live, fields, allowMissing);
    TableStatsValue stats = s.requireStats(tableId);
    long rowIdStart = keptRowIdStart == null ? stats.getNextRowId() : keptRowIdStart;
    if (Long.compareUnsigned(rowIdStart + file.recordCount(), rowIdStart) < 0) {
      throw new InvalidArgumentException(
          "the file's rows would run past the largest row id of table "
              + Long.toUnsignedString(tableId));
    }
    // Everything is checked above; from here on the verb only stages.
    Long mappingId = null;
    if (mapping != null) {
      mappingId = s.nextFileId++;
      s.staged.put(
          new EntityKey.Mapping(tableId, mappingId),
          MappingValue.newBuilder()
              .setMappingId(mappingId)
              .setTableId(tableId)
              .setMapType(NameMappings.MAP_BY_NAME)
              .addAllNameMappings(mapping)
              .build());
    }
    long fileId = s.nextFileId++;
    s.staged.put(
        new EntityKey.TableStats(tableId),
        keptRowIdStart == null
            ? stats.toBuilder()
                .setNextRowId(rowIdStart + file.recordCount())
                .setRecordCount(stats.getRecordCount() + file.recordCount())
                .setFileSizeBytes(stats.getFileSizeBytes() + file.fileSizeBytes())
                .build()
            : stats.toBuilder()
                .setFileSizeBytes(stats.getFileSizeBytes() + file.fileSizeBytes())
                .build());
    DataFileValue.Builder value =
        DataFileValue.newBuilder()
            .setDataFileId(fileId)
            .setTableId(tableId)
            .setBeginSnapshot(beginSnapshot)
            .setPath(file.path())
            .setPathIsRelative(file.pathIsRelative())
            .setFileFormat(file.fileFormat())
            .setRecordCount(file.recordCount())
            .setFileSizeBytes(file.fileSizeBytes())
            .setFooterSize(file.footerSize())
            .setRowIdStart(rowIdStart);
    if (partitionId != null) {
      value.setPartitionId(partitionId);
    }
    file.encryptionKey().ifPresent(value::setEncryptionKey);
    if (mappingId != null) {
      value.setMappingId(mappingId);
    }
    for (int i = 0; i < file.partitionValues().size(); i++) {
      value.addPartitionValues(
          FilePartitionValue.newBuilder()
              .setPartitionKeyIndex(i)
              .setPartitionValue(file.partitionValues().get(i)));
    }
    s.staged.put(new EntityKey.DataFile(tableId, fileId), value.build());
    if (keptRowIdStart == null) {
      deriveColumnStats(tableId, live, file.columnStats(), rowIdStart != 0);
    }
    stageFileColumnStats(tableId, fileId, file.columnStats());
    return fileId;
  }

  /**
   * Checks a data file's fields and column statistics against the table's live columns, and returns
   * those columns; throws before anything is staged.
   */
  List<ColumnValue> checkFile(long tableId, NewDataFile file) {
    if (file == null) {
      throw new InvalidArgumentException("data file must not be null");
    }
    s.requireTable(tableId);
    if (file.path() == null || file.path().isEmpty()) {
      throw new InvalidArgumentException("data file path must not be empty");
    }
    if (file.fileFormat() == null || file.fileFormat().isEmpty()) {
      throw new InvalidArgumentException("data file format must not be empty");
    }
    VerbState.nonNegative("record count", file.recordCount());
    VerbState.nonNegative("file size", file.fileSizeBytes());
    VerbState.nonNegative("footer size", file.footerSize());
    List<ColumnValue> live = s.columnRecords(tableId);
    Set<Long> statColumns = new HashSet<>();
    for (NewFileColumnStats st : file.columnStats()) {
      if (st == null) {
        throw new InvalidArgumentException("a column statistics entry is null");
      }
      VerbState.requireColumn(live, tableId, st.columnId());
      if (!statColumns.add(st.columnId())) {
        throw new InvalidArgumentException(
            "column " + Long.toUnsignedString(st.columnId()) + " has two statistics entries");
      }
      VerbState.nonNegative("column size", st.columnSizeBytes());
      VerbState.nonNegative("value count", st.valueCount());
      VerbState.nonNegative("null count", st.nullCount());
    }
    return live;
  }

  /** Stages the column statistics of data file {@code fileId}, already checked. */
  void stageFileColumnStats(long tableId, long fileId, List<NewFileColumnStats> stats) {
    for (NewFileColumnStats st : stats) {
      s.staged.put(
          new EntityKey.FileColumnStats(tableId, fileId, st.columnId()),
          fileColumnStatsRecord(tableId, fileId, st));
    }
  }

  /** The record of one column's statistics in data file {@code fileId}. */
  static FileColumnStatsValue fileColumnStatsRecord(
      long tableId, long fileId, NewFileColumnStats st) {
    FileColumnStatsValue.Builder b =
        FileColumnStatsValue.newBuilder()
            .setDataFileId(fileId)
            .setTableId(tableId)
            .setColumnId(st.columnId())
            .setColumnSizeBytes(st.columnSizeBytes())
            .setValueCount(st.valueCount())
            .setNullCount(st.nullCount());
    st.minValue().ifPresent(b::setMinValue);
    st.maxValue().ifPresent(b::setMaxValue);
    st.containsNan().ifPresent(b::setContainsNan);
    st.extraStats().ifPresent(b::setExtraStats);
    return b.build();
  }

  /**
   * Widens the table's column statistics by a file of new rows, as stock DuckLake merges a file's
   * statistics into {@code ducklake_table_column_stats}, for every leaf column (a struct, list or
   * map has none of its own; its members do). A column the file gives no statistics for holds
   * values no bound describes: its table record is removed, so readers know nothing of its bounds
   * (stock DuckLake always has a file's statistics; a reader that trusted bounds without this
   * file's values would skip its rows). A table that holds rows but no record for a column (one
   * added later, or unknown as above) keeps none, as stock DuckLake leaves a column added after the
   * first insert.
   */
  private void deriveColumnStats(
      long tableId, List<ColumnValue> live, List<NewFileColumnStats> given, boolean hadRowIds) {
    boolean starts = s.startsColumnStats(tableId, hadRowIds);
    Map<Long, NewFileColumnStats> byColumn = new HashMap<>();
    given.forEach(st -> byColumn.put(st.columnId(), st));
    Set<Long> parents = new HashSet<>();
    live.forEach(
        c -> {
          if (c.hasParentColumn()) {
            parents.add(c.getParentColumn());
          }
        });
    for (ColumnValue column : live) {
      if (parents.contains(column.getColumnId())) {
        continue;
      }
      EntityKey key = new EntityKey.TableColumnStats(tableId, column.getColumnId());
      TableColumnStatsValue before = s.staged.get(key, TableColumnStatsValue.class).orElse(null);
      NewFileColumnStats st = byColumn.get(column.getColumnId());
      if (st == null) {
        if (before != null) {
          s.staged.delete(key);
        }
        continue;
      }
      if (before == null && !starts) {
        continue;
      }
      s.staged.put(key, FileStatsMerge.merge(tableId, column, live, before, st));
    }
  }

  /**
   * The id of the table's live partition spec the values are for, or null for an unpartitioned
   * table given no values.
   */
  private Long partitionFor(long tableId, List<String> values) {
    List<PartitionValue> specs = s.partitionRecords(tableId);
    if (specs.isEmpty()) {
      if (!values.isEmpty()) {
        throw new InvalidArgumentException(
            values.size()
                + " partition value(s) for table "
                + Long.toUnsignedString(tableId)
                + ", which is not partitioned");
      }
      return null;
    }
    PartitionValue spec = specs.get(0);
    if (values.size() != spec.getColumnsCount()) {
      throw new InvalidArgumentException(
          values.size()
              + " partition value(s) for table "
              + Long.toUnsignedString(tableId)
              + ", whose partition spec has "
              + spec.getColumnsCount()
              + " key(s)");
    }
    for (String v : values) {
      if (v == null) {
        throw new InvalidArgumentException("a partition value is null");
      }
    }
    return spec.getPartitionId();
  }
}
