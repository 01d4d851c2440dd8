package dev.moraine.core.keyspace.value;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.InlineChunkRangeValue;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteTableValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteValue;
import dev.moraine.core.keyspace.proto.InlineInlineDeleteValue;
import dev.moraine.core.keyspace.proto.InlineSchemaDroppedValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.MaintenanceStatusValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.MigrationValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SchemaVersionValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import java.util.Optional;

/** Which message each kind of key holds (RFC 0002 §7.1). */
public final class ValueKinds {
  private ValueKinds() {}

  /**
   * The message stored under {@code key}, as its default instance; empty for the two keys whose
   * value is not a framed message: equality-index entries (raw, see {@link IndexEntryValues}) and
   * the superseded {@code 06 06} chunk range, whose value the format never reads.
   */
  public static Optional<Message> messageFor(Key key) {
    return Optional.ofNullable(lookup(key));
  }

  /** The message of an entity kind, under {@code current} and {@code history} alike. */
  public static Message messageFor(EntityKind kind) {
    return switch (kind) {
      case SCHEMA -> SchemaValue.getDefaultInstance();
      case TABLE -> TableValue.getDefaultInstance();
      case VIEW -> ViewValue.getDefaultInstance();
      case COLUMN -> ColumnValue.getDefaultInstance();
      case PARTITION -> PartitionValue.getDefaultInstance();
      case DATA_FILE -> DataFileValue.getDefaultInstance();
      case DELETE_FILE -> DeleteFileValue.getDefaultInstance();
      case FILE_COLUMN_STATS -> FileColumnStatsValue.getDefaultInstance();
      case TABLE_STATS -> TableStatsValue.getDefaultInstance();
      case TABLE_COLUMN_STATS -> TableColumnStatsValue.getDefaultInstance();
      case TAG -> TagValue.getDefaultInstance();
      case OPTION_SCOPE -> OptionScopeValue.getDefaultInstance();
      case SORT -> SortValue.getDefaultInstance();
      case MACRO -> MacroValue.getDefaultInstance();
      case MAPPING -> MappingValue.getDefaultInstance();
      case INDEX_DEFINITION -> IndexValue.getDefaultInstance();
    };
  }

  private static Message lookup(Key key) {
    if (key instanceof SysKey k) {
      return switch (k) {
        case FORMAT -> FormatValue.getDefaultInstance();
        case HEAD -> HeadValue.getDefaultInstance();
        case MIGRATION -> MigrationValue.getDefaultInstance();
        case MAINTENANCE_STATUS -> MaintenanceStatusValue.getDefaultInstance();
      };
    }
    if (key instanceof SnapshotKey) {
      return SnapshotValue.getDefaultInstance();
    }
    if (key instanceof CurrentKey.Entity e) {
      return messageFor(e.entity().kind());
    }
    if (key instanceof CurrentKey.ScheduledDeletion) {
      return GcFileValue.getDefaultInstance();
    }
    if (key instanceof HistoryKey h) {
      return messageFor(h.entity().kind());
    }
    if (key instanceof InlineKey k) {
      return inline(k);
    }
    if (key instanceof IndexEntryKey) {
      return null;
    }
    if (key instanceof SchemaVersionKey) {
      return SchemaVersionValue.getDefaultInstance();
    }
    if (key instanceof ChangelogKey) {
      return ChangelogValue.getDefaultInstance();
    }
    throw new AssertionError("unhandled key type " + key.getClass());
  }

  private static Message inline(InlineKey key) {
    if (key instanceof InlineKey.Schema) {
      return InlineSchemaValue.getDefaultInstance();
    }
    if (key instanceof InlineKey.Record r) {
      InlineOp op = r.op();
      if (op instanceof InlineOp.InsertChunk) {
        return InlineChunkValue.getDefaultInstance();
      }
      if (op instanceof InlineOp.LegacyInlineDelete) {
        return InlineInlineDeleteValue.getDefaultInstance();
      }
      return InlineFileDeleteValue.getDefaultInstance();
    }
    if (key instanceof InlineKey.FileDeleteTable) {
      return InlineFileDeleteTableValue.getDefaultInstance();
    }
    if (key instanceof InlineKey.LegacyChunkRange) {
      return null;
    }
    if (key instanceof InlineKey.SchemaDropped) {
      return InlineSchemaDroppedValue.getDefaultInstance();
    }
    if (key instanceof InlineKey.ChunkLocator) {
      return InlineChunkRangeValue.getDefaultInstance();
    }
    return InlineInlineDeleteValue.getDefaultInstance();
  }
}
