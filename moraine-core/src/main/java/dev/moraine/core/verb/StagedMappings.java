package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.NameMapping;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.NameMappingRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's column mappings (RFC 0006 §4.8, §13): the {@code ducklake_column_mapping}
 * row and its {@code ducklake_name_mapping} rows that {@code ducklake_add_data_files} writes for a
 * file it registers by its columns' names, folded into the one mapping record the verb path's
 * {@code registerDataFileByName} writes. The mapping id comes from the commit's range of {@code
 * next_file_id}, as stock draws it, and is distinct from the commit's file ids; the name mappings
 * are numbered from 0, each naming an earlier one as its parent or none, and each maps to a column
 * of the table. A data file names a mapping of its table, this commit's or one the lake holds
 * ({@link StagedFileRows}). Confined to the thread running the translation.
 */
final class StagedMappings {
  private StagedMappings() {}

  /**
   * Stages the mappings {@code mappings} with their rows {@code names}, checking each id against
   * the commit's range of file ids and {@code fileIds}, the ids the commit's files and mappings
   * took so far.
   */
  static void create(
      StagedEntities staged,
      StagedFileRows fileRows,
      List<ColumnMappingRow> mappings,
      List<NameMappingRow> names,
      SnapshotValue record,
      Set<Long> fileIds) {
    Map<Long, List<NameMappingRow>> byMapping = new HashMap<>();
    for (NameMappingRow r : names) {
      byMapping
          .computeIfAbsent(required(r.mappingId(), r, "mapping_id"), k -> new ArrayList<>())
          .add(r);
    }
    for (ColumnMappingRow m : mappings) {
      long id = required(m.mappingId(), m, "mapping_id");
      long tableId = required(m.tableId(), m, "table_id");
      fileRows.checkNewFile(m, id, record, fileIds);
      if (staged.get(new EntityKey.Table(tableId), TableValue.class).isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "the ducklake_column_mapping row "
                + Long.toUnsignedString(id)
                + " names table "
                + Long.toUnsignedString(tableId)
                + ", which is not live");
      }
      List<NameMappingRow> rows = byMapping.remove(id);
      if (rows == null) {
        throw new InvalidArgumentException(
            "column mapping " + Long.toUnsignedString(id) + " has no ducklake_name_mapping rows");
      }
      rows.sort(
          Comparator.comparing(
              NameMappingRow::columnId, Comparator.nullsFirst(Comparator.naturalOrder())));
      MappingValue.Builder value =
          MappingValue.newBuilder()
              .setMappingId(id)
              .setTableId(tableId)
              .setMapType(nonEmpty(m.type(), m, "type"));
      Set<Long> numbers = new HashSet<>();
      for (int k = 0; k < rows.size(); k++) {
        NameMappingRow r = rows.get(k);
        long number = required(r.columnId(), r, "column_id");
        long target = required(r.targetFieldId(), r, "target_field_id");
        if (number != k || (r.parentColumn() != null && !numbers.contains(r.parentColumn()))) {
          throw new InvalidArgumentException(
              "the name mappings of mapping "
                  + Long.toUnsignedString(id)
                  + " are not numbered 0.. with each parent an earlier one: "
                  + r);
        }
        numbers.add(number);
        if (staged.get(new EntityKey.Column(tableId, target), ColumnValue.class).isEmpty()) {
          throw new NotFoundException(
              ErrorCode.NOT_FOUND,
              "name mapping "
                  + number
                  + " of mapping "
                  + Long.toUnsignedString(id)
                  + " maps to column "
                  + Long.toUnsignedString(target)
                  + ", which table "
                  + Long.toUnsignedString(tableId)
                  + " does not have live");
        }
        NameMapping.Builder b =
            NameMapping.newBuilder()
                .setColumnId(number)
                .setSourceName(nonEmpty(r.sourceName(), r, "source_name"))
                .setTargetFieldId(target)
                .setIsPartition(required(r.isPartition(), r, "is_partition"));
        if (r.parentColumn() != null) {
          b.setParentColumn(r.parentColumn());
        }
        value.addNameMappings(b);
      }
      staged.put(new EntityKey.Mapping(tableId, id), value.build());
    }
    if (!byMapping.isEmpty()) {
      throw new InvalidArgumentException(
          "ducklake_name_mapping rows name mappings "
              + byMapping.keySet()
              + " this commit does not create");
    }
  }

  private static String nonEmpty(String value, dev.moraine.ducklake.rows.DuckLakeRow r, String c) {
    if (required(value, r, c).isEmpty()) {
      throw new InvalidArgumentException(StagedRowChecks.tableOf(r) + "." + c + " is empty: " + r);
    }
    return value;
  }
}
