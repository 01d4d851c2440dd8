package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.once;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import java.util.List;
import java.util.Set;

/**
 * The staged-row door's statistics rows (RFC 0006 §4.3, §4.4): a file's column statistics, and the
 * table statistics DuckLake updates in place, each stored as given for a live file, table and
 * column, for {@link StagedTranslation}. Confined to the thread running the translation.
 */
final class StagedStatistics {
  private final StagedEntities staged;
  private final StagedBase liveness;

  StagedStatistics(StagedEntities staged, StagedBase liveness) {
    this.staged = staged;
    this.liveness = liveness;
  }

  void insertFileStats(FileColumnStatsRow r, Set<List<Long>> seen) {
    long tableId = required(r.tableId(), r, "table_id");
    long fileId = required(r.dataFileId(), r, "data_file_id");
    long columnId = required(r.columnId(), r, "column_id");
    once(seen, List.of(1L, tableId, fileId, columnId), r);
    if (staged.get(new EntityKey.DataFile(tableId, fileId), DataFileValue.class).isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "file column statistics name data file "
              + Long.toUnsignedString(fileId)
              + ", which table "
              + Long.toUnsignedString(tableId)
              + " does not hold live");
    }
    liveness.liveColumn(tableId, columnId, r);
    FileColumnStatsValue.Builder value =
        FileColumnStatsValue.newBuilder()
            .setDataFileId(fileId)
            .setTableId(tableId)
            .setColumnId(columnId)
            .setColumnSizeBytes(required(r.columnSizeBytes(), r, "column_size_bytes"))
            .setValueCount(required(r.valueCount(), r, "value_count"))
            .setNullCount(required(r.nullCount(), r, "null_count"));
    if (r.minValue() != null) {
      value.setMinValue(r.minValue());
    }
    if (r.maxValue() != null) {
      value.setMaxValue(r.maxValue());
    }
    if (r.containsNan() != null) {
      value.setContainsNan(r.containsNan());
    }
    if (r.extraStats() != null) {
      value.setExtraStats(r.extraStats());
    }
    staged.put(new EntityKey.FileColumnStats(tableId, fileId, columnId), value.build());
  }

  void overwriteTableStats(TableStatsRow r, Set<List<Long>> seen) {
    long tableId = required(r.tableId(), r, "table_id");
    once(seen, List.of(2L, tableId), r);
    liveness.liveTable(tableId, r);
    staged.put(
        new EntityKey.TableStats(tableId),
        TableStatsValue.newBuilder()
            .setTableId(tableId)
            .setRecordCount(required(r.recordCount(), r, "record_count"))
            .setNextRowId(required(r.nextRowId(), r, "next_row_id"))
            .setFileSizeBytes(required(r.fileSizeBytes(), r, "file_size_bytes"))
            .build());
  }

  void overwriteColumnStats(TableColumnStatsRow r, Set<List<Long>> seen) {
    long tableId = required(r.tableId(), r, "table_id");
    long columnId = required(r.columnId(), r, "column_id");
    once(seen, List.of(3L, tableId, columnId), r);
    liveness.liveTable(tableId, r);
    liveness.liveColumn(tableId, columnId, r);
    TableColumnStatsValue.Builder value =
        TableColumnStatsValue.newBuilder().setTableId(tableId).setColumnId(columnId);
    if (r.containsNull() != null) {
      value.setContainsNull(r.containsNull());
    }
    if (r.containsNan() != null) {
      value.setContainsNan(r.containsNan());
    }
    if (r.minValue() != null) {
      value.setMinValue(r.minValue());
    }
    if (r.maxValue() != null) {
      value.setMaxValue(r.maxValue());
    }
    if (r.extraStats() != null) {
      value.setExtraStats(r.extraStats());
    }
    staged.put(new EntityKey.TableColumnStats(tableId, columnId), value.build());
  }
}
