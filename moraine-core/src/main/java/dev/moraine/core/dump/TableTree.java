package dev.moraine.core.dump;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** One table of a snapshot with everything under it (docs/dump-format.md §5.2, §6, §7). */
final class TableTree {
  private TableTree() {}

  static Obj of(CatalogSnapshot s, TableInfo table) {
    long id = table.tableId();
    List<ColumnInfo> columns =
        s.columns(id).stream()
            .sorted(Comparator.comparing(ColumnInfo::columnId, Long::compareUnsigned))
            .toList();
    Set<Long> liveColumns = columns.stream().map(ColumnInfo::columnId).collect(Collectors.toSet());
    // File column statistics are unversioned; they are shown under the data files live here.
    Map<Long, List<FileColumnStats>> fileStats = new TreeMap<>(Long::compareUnsigned);
    for (FileColumnStats f : s.fileColumnStats(id)) {
      fileStats.computeIfAbsent(f.dataFileId(), k -> new ArrayList<>()).add(f);
    }
    return Obj.of()
        .with(
            "column_stats",
            s.columnStats(id).stream()
                .filter(c -> liveColumns.contains(c.columnId()))
                .sorted(Comparator.comparing(ColumnStats::columnId, Long::compareUnsigned))
                .map(TableTree::columnStats)
                .toList())
        .with("columns", columns.stream().map(c -> column(c, s.snapshotId())).toList())
        .with(
            "data_files",
            s.dataFiles(id).stream()
                .sorted(Comparator.comparing(DataFileInfo::dataFileId, Long::compareUnsigned))
                .map(f -> dataFile(f, fileStats.getOrDefault(f.dataFileId(), List.of())))
                .toList())
        .with(
            "delete_files",
            s.deleteFiles(id).stream()
                .sorted(Comparator.comparing(DeleteFileInfo::deleteFileId, Long::compareUnsigned))
                .map(TableTree::deleteFile)
                .toList())
        .with("id", Obj.unsigned(id))
        .with("inlined_rows", inlinedRows(table, s.inlinedRows(id)))
        .with(
            "mappings",
            s.mappings(id).stream()
                .sorted(Comparator.comparing(MappingInfo::mappingId, Long::compareUnsigned))
                .map(TableTree::mapping)
                .toList())
        .with("name", table.name())
        .with("partitioning", s.partitioning(id).map(TableTree::partitioning).orElse(null))
        .with("schema_id", Obj.unsigned(table.schemaId()))
        .with("sorting", s.sorting(id).map(TableTree::sorting).orElse(null))
        .with("stats", s.tableStats(id).map(TableTree::tableStats).orElse(null))
        .with("tags", SnapshotTree.tags(s, id));
  }

  private static Obj column(ColumnInfo c, long at) {
    return Obj.of()
        .with("column_type", c.type())
        .with("default_value", Obj.orNull(c.defaultValue()))
        .with("id", Obj.unsigned(c.columnId()))
        .with("name", c.name())
        .with("nulls_allowed", c.nullsAllowed())
        .with("parent_id", Obj.unsigned(c.parentColumn()))
        .with("position", Obj.unsigned(c.columnOrder()))
        .with("tags", SnapshotTree.tagList(c.tags(), at));
  }

  private static Obj columnStats(ColumnStats c) {
    return Obj.of()
        .with("column_id", Obj.unsigned(c.columnId()))
        .with("contains_nan", Obj.orNull(c.containsNan()))
        .with("contains_null", Obj.orNull(c.containsNull()))
        .with("extra_stats", Obj.orNull(c.extraStats()))
        .with("max_value", Obj.orNull(c.maxValue()))
        .with("min_value", Obj.orNull(c.minValue()));
  }

  private static Obj dataFile(DataFileInfo f, List<FileColumnStats> stats) {
    return Obj.of()
        .with(
            "column_stats",
            stats.stream()
                .sorted(Comparator.comparing(FileColumnStats::columnId, Long::compareUnsigned))
                .map(TableTree::fileColumnStats)
                .toList())
        .with("encryption_key", Obj.orNull(f.encryptionKey()))
        .with("file_format", f.fileFormat())
        .with("file_size_bytes", Obj.unsigned(f.fileSizeBytes()))
        .with("footer_size", Obj.unsigned(f.footerSize()))
        .with("id", Obj.unsigned(f.dataFileId()))
        .with("partial_max", Obj.unsigned(f.partialMax()))
        .with("partition_id", Obj.unsigned(f.partitionId()))
        .with(
            "partition_values",
            f.partitionValues().stream()
                .sorted(
                    Comparator.comparing(
                        DataFileInfo.PartitionValue::partitionKeyIndex, Long::compareUnsigned))
                .map(DataFileInfo.PartitionValue::value)
                .toList())
        .with("path", f.path())
        .with("path_is_relative", f.pathIsRelative())
        .with("record_count", Obj.unsigned(f.recordCount()))
        .with("row_id_start", Obj.unsigned(f.rowIdStart()));
  }

  private static Obj fileColumnStats(FileColumnStats c) {
    return Obj.of()
        .with("column_id", Obj.unsigned(c.columnId()))
        .with("column_size_bytes", Obj.unsigned(c.columnSizeBytes()))
        .with("contains_nan", Obj.orNull(c.containsNan()))
        .with("extra_stats", Obj.orNull(c.extraStats()))
        .with("max_value", Obj.orNull(c.maxValue()))
        .with("min_value", Obj.orNull(c.minValue()))
        .with("null_count", Obj.unsigned(c.nullCount()))
        .with("value_count", Obj.unsigned(c.valueCount()));
  }

  private static Obj deleteFile(DeleteFileInfo f) {
    return Obj.of()
        .with("data_file_id", Obj.unsigned(f.dataFileId()))
        .with("delete_count", Obj.unsigned(f.deleteCount()))
        .with("encryption_key", Obj.orNull(f.encryptionKey()))
        .with("file_size_bytes", Obj.unsigned(f.fileSizeBytes()))
        .with("footer_size", Obj.unsigned(f.footerSize()))
        .with("format", f.format())
        .with("id", Obj.unsigned(f.deleteFileId()))
        .with("path", f.path())
        .with("path_is_relative", f.pathIsRelative());
  }

  private static Obj mapping(MappingInfo m) {
    return Obj.of()
        .with("id", Obj.unsigned(m.mappingId()))
        .with("map_type", m.mapType())
        .with(
            "name_mappings",
            m.nameMappings().stream()
                .map(
                    n ->
                        Obj.of()
                            .with("column_id", Obj.unsigned(n.columnId()))
                            .with("is_partition", n.isPartition())
                            .with("parent_column", Obj.unsigned(n.parentColumn()))
                            .with("source_name", n.sourceName())
                            .with("target_field_id", Obj.unsigned(n.targetFieldId())))
                .toList());
  }

  private static Obj partitioning(PartitionSpec p) {
    return Obj.of()
        .with(
            "columns",
            p.columns().stream()
                .sorted(
                    Comparator.comparing(
                        PartitionSpec.Column::partitionKeyIndex, Long::compareUnsigned))
                .map(
                    c ->
                        Obj.of()
                            .with("column_id", Obj.unsigned(c.columnId()))
                            .with("transform", c.transform()))
                .toList())
        .with("id", Obj.unsigned(p.partitionId()));
  }

  private static Obj sorting(SortSpec sort) {
    return Obj.of()
        .with("id", Obj.unsigned(sort.sortId()))
        .with(
            "keys",
            sort.expressions().stream()
                .sorted(
                    Comparator.comparing(SortSpec.Expression::sortKeyIndex, Long::compareUnsigned))
                .map(
                    e ->
                        Obj.of()
                            .with("dialect", e.dialect())
                            .with("expression", e.expression())
                            .with("null_order", e.nullOrder())
                            .with("sort_direction", e.sortDirection()))
                .toList());
  }

  private static Obj tableStats(TableStats t) {
    return Obj.of()
        .with("file_size_bytes", Obj.unsigned(t.fileSizeBytes()))
        .with("next_row_id", Obj.unsigned(t.nextRowId()))
        .with("record_count", Obj.unsigned(t.recordCount()));
  }

  private static List<Obj> inlinedRows(TableInfo table, InlinedRows rows) {
    List<Obj> out = new ArrayList<>(rows.rows().size());
    for (InlinedRows.Row row : rows.rows()) {
      List<Object> values = new ArrayList<>(row.values().size());
      for (int i = 0; i < row.values().size(); i++) {
        values.add(InlinedValue.json(table, row, i));
      }
      out.add(
          Obj.of()
              .with("begin_snapshot", Obj.unsigned(row.beginSnapshot()))
              .with("row_id", Obj.unsigned(row.rowId()))
              .with("schema_version", Obj.unsigned(row.schemaVersion()))
              .with("values", values));
    }
    return out;
  }
}
