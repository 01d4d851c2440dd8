package dev.moraine.core.keyspace.value;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.InlineChunkRangeValue;
import dev.moraine.core.keyspace.proto.InlineInlineDeleteValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import java.util.List;
import java.util.Map;

/**
 * The agreements between a key and its value that the format guarantees (RFC 0002 §7.1): values
 * repeat the ids of their key, a history value's {@code end_snapshot} is the key's end snapshot, a
 * chunk locator's value names the chunk of its key, an inline schema record is either a schema or a
 * reference. Readers of the format take ids from the value, so a value that disagrees with its key
 * is refused rather than read.
 *
 * <p>The ids of the generated messages are read through their own getters ({@link EntityIds}); the
 * descriptor-driven read remains for any other implementation of the message (a dynamic one), and
 * for {@code end_snapshot}, whose presence matters.
 */
final class ValueConsistency {
  private ValueConsistency() {}

  /** The value fields that repeat an entity key's components, in component order. */
  private static final Map<EntityKind, List<String>> ID_FIELDS =
      Map.ofEntries(
          Map.entry(EntityKind.SCHEMA, List.of("schema_id")),
          Map.entry(EntityKind.TABLE, List.of("table_id")),
          Map.entry(EntityKind.VIEW, List.of("view_id")),
          Map.entry(EntityKind.COLUMN, List.of("table_id", "column_id")),
          Map.entry(EntityKind.PARTITION, List.of("table_id", "partition_id")),
          Map.entry(EntityKind.DATA_FILE, List.of("table_id", "data_file_id")),
          Map.entry(EntityKind.DELETE_FILE, List.of("table_id", "delete_file_id")),
          Map.entry(EntityKind.FILE_COLUMN_STATS, List.of("table_id", "data_file_id", "column_id")),
          Map.entry(EntityKind.TABLE_STATS, List.of("table_id")),
          Map.entry(EntityKind.TABLE_COLUMN_STATS, List.of("table_id", "column_id")),
          Map.entry(EntityKind.TAG, List.of("object_id")),
          // An option scope's value is a bare map: nothing to compare.
          Map.entry(EntityKind.OPTION_SCOPE, List.of()),
          Map.entry(EntityKind.SORT, List.of("table_id", "sort_id")),
          Map.entry(EntityKind.MACRO, List.of("macro_id")),
          Map.entry(EntityKind.MAPPING, List.of("table_id", "mapping_id")),
          Map.entry(EntityKind.INDEX_DEFINITION, List.of("table_id", "index_id")));

  /** Why {@code value} cannot be the value of {@code key}, or null when it can. */
  static String problem(Key key, Message value) {
    if (key instanceof CurrentKey.Entity e) {
      return ids(e.entity(), value);
    }
    if (key instanceof HistoryKey h) {
      String p = ids(h.entity(), value);
      if (p != null) {
        return p;
      }
      return field(value, "end_snapshot", h.endSnapshot());
    }
    if (key instanceof CurrentKey.ScheduledDeletion d) {
      return value instanceof GcFileValue v
          ? compare("data_file_id", v.getDataFileId(), d.dataFileId())
          : field(value, "data_file_id", d.dataFileId());
    }
    if (key instanceof SnapshotKey s) {
      return value instanceof SnapshotValue v
          ? compare("snapshot_id", v.getSnapshotId(), s.snapshotId())
          : field(value, "snapshot_id", s.snapshotId());
    }
    if (key instanceof InlineKey.ChunkLocator l) {
      InlineChunkRangeValue v = (InlineChunkRangeValue) value;
      if (v.getSchemaVersion() != l.schemaVersion()
          || v.getBeginSnapshot() != l.beginSnapshot()
          || v.getChunkSeq() != l.chunkSeq()) {
        return "locator value names another chunk than its key";
      }
      if (Long.compareUnsigned(v.getRowIdStart(), l.rowIdEnd()) > 0) {
        return "locator row_id_start is past the key's row_id_end";
      }
      return null;
    }
    if (key instanceof InlineKey.RowTombstone t) {
      return ((InlineInlineDeleteValue) value).getEndSnapshot() == t.endSnapshot()
          ? null
          : "tombstone end_snapshot differs from its key";
    }
    if (key instanceof InlineKey.Schema) {
      InlineSchemaValue v = (InlineSchemaValue) value;
      if (v.getArrowSchema().isEmpty() == !v.hasSameAsVersion()) {
        return "inline schema record must hold either a schema or a same_as_version reference";
      }
      return null;
    }
    return null;
  }

  private static String ids(EntityKey entity, Message value) {
    List<String> names = ID_FIELDS.get(entity.kind());
    long[] ids = entity.ids();
    long[] actual = EntityIds.of(entity.kind(), value);
    for (int i = 0; i < names.size(); i++) {
      String p =
          actual != null
              ? compare(names.get(i), actual[i], ids[i])
              : field(value, names.get(i), ids[i]);
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  /** The check of {@link #field} on a value read without reflection (its field has no presence). */
  private static String compare(String name, long actual, long expected) {
    if (actual == expected) {
      return null;
    }
    return name
        + " is "
        + Long.toUnsignedString(actual)
        + "; the key says "
        + Long.toUnsignedString(expected);
  }

  private static String field(Message value, String name, long expected) {
    FieldDescriptor f = value.getDescriptorForType().findFieldByName(name);
    if (f == null) {
      return value.getDescriptorForType().getName() + " has no " + name + " field";
    }
    if (f.hasPresence() && !value.hasField(f)) {
      return name + " is absent; the key says " + Long.toUnsignedString(expected);
    }
    return compare(name, (Long) value.getField(f), expected);
  }
}
