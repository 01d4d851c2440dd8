package dev.moraine.core.keyspace.value;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;

/**
 * The ids an entity value repeats from its key, read through the generated getters, in the order of
 * the key's components ({@code ValueConsistency}'s field names, in the same order). Every codec
 * call checks them, and reading them through protobuf's descriptor reflection cost more than the
 * rest of encoding a small value.
 */
final class EntityIds {
  private EntityIds() {}

  /**
   * The ids of {@code value} as the value of an entity of {@code kind}, or null when {@code value}
   * is not the generated message of that kind (a dynamic message, say), which the caller then reads
   * through its descriptor.
   */
  static long[] of(EntityKind kind, Message value) {
    return switch (kind) {
      case SCHEMA -> value instanceof SchemaValue v ? new long[] {v.getSchemaId()} : null;
      case TABLE -> value instanceof TableValue v ? new long[] {v.getTableId()} : null;
      case VIEW -> value instanceof ViewValue v ? new long[] {v.getViewId()} : null;
      case COLUMN ->
          value instanceof ColumnValue v ? new long[] {v.getTableId(), v.getColumnId()} : null;
      case PARTITION ->
          value instanceof PartitionValue v
              ? new long[] {v.getTableId(), v.getPartitionId()}
              : null;
      case DATA_FILE ->
          value instanceof DataFileValue v ? new long[] {v.getTableId(), v.getDataFileId()} : null;
      case DELETE_FILE ->
          value instanceof DeleteFileValue v
              ? new long[] {v.getTableId(), v.getDeleteFileId()}
              : null;
      case FILE_COLUMN_STATS ->
          value instanceof FileColumnStatsValue v
              ? new long[] {v.getTableId(), v.getDataFileId(), v.getColumnId()}
              : null;
      case TABLE_STATS -> value instanceof TableStatsValue v ? new long[] {v.getTableId()} : null;
      case TABLE_COLUMN_STATS ->
          value instanceof TableColumnStatsValue v
              ? new long[] {v.getTableId(), v.getColumnId()}
              : null;
      case TAG -> value instanceof TagValue v ? new long[] {v.getObjectId()} : null;
      case OPTION_SCOPE -> value instanceof OptionScopeValue ? new long[0] : null;
      case SORT -> value instanceof SortValue v ? new long[] {v.getTableId(), v.getSortId()} : null;
      case MACRO -> value instanceof MacroValue v ? new long[] {v.getMacroId()} : null;
      case MAPPING ->
          value instanceof MappingValue v ? new long[] {v.getTableId(), v.getMappingId()} : null;
      case INDEX_DEFINITION ->
          value instanceof IndexValue v ? new long[] {v.getTableId(), v.getIndexId()} : null;
    };
  }
}
