package dev.moraine.core.maintenance;

import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.verb.SchedulePaths;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The paths of a lake's files relative to its data path, as the file cleanup and the orphan search
 * compare them with the objects a {@link dev.moraine.core.catalog.LakeFiles} lists: a relative path
 * resolved through its table's and schema's paths, an absolute one inside the data path with the
 * data path cut off; an absolute path elsewhere has none.
 */
final class LakePaths {
  private final Optional<String> dataPath;

  LakePaths(Optional<String> dataPath) {
    this.dataPath = dataPath;
  }

  /** {@code record}'s path relative to the data path, or empty when it lies outside it. */
  Optional<String> relative(GcFileValue record) {
    return relative(record.getPath(), record.getPathIsRelative());
  }

  Optional<String> relative(String path, boolean isRelative) {
    if (isRelative) {
      return Optional.of(path);
    }
    if (dataPath.isEmpty() || !path.startsWith(dataPath.get())) {
      return Optional.empty();
    }
    String rest = path.substring(dataPath.get().length());
    return Optional.of(rest.startsWith("/") ? rest.substring(1) : rest);
  }

  /**
   * Every path, relative to the data path, that a data or delete file record (live or ended) or a
   * schedule record names, read through {@code v}.
   */
  Referenced referenced(KvReadView v) {
    Map<Long, SchemaValue> schemas = new HashMap<>();
    Map<Long, TableValue> tables = new HashMap<>();
    eachRecord(
        v,
        value -> {
          if (value instanceof SchemaValue s) {
            schemas.putIfAbsent(s.getSchemaId(), s);
          } else if (value instanceof TableValue t) {
            tables.putIfAbsent(t.getTableId(), t);
          }
        },
        EntityKind.SCHEMA,
        EntityKind.TABLE);
    Referenced out = new Referenced();
    eachRecord(
        v,
        value -> {
          String path;
          boolean rel;
          long tableId;
          if (value instanceof DataFileValue f) {
            path = f.getPath();
            rel = f.getPathIsRelative();
            tableId = f.getTableId();
          } else {
            DeleteFileValue d = (DeleteFileValue) value;
            path = d.getPath();
            rel = d.getPathIsRelative();
            tableId = d.getTableId();
          }
          TableValue table = tables.get(tableId);
          SchemaValue schema = table == null ? null : schemas.get(table.getSchemaId());
          if (rel && (table == null || schema == null)) {
            // A file whose table or schema record is gone cannot be placed: counted, so that the
            // search refuses to delete anything rather than take its file for an orphan.
            out.unresolved++;
            return;
          }
          GcFileValue resolved =
              rel
                  ? SchedulePaths.of(schema, table, 0, path, true).build()
                  : GcFileValue.newBuilder().setPath(path).setPathIsRelative(false).build();
          relative(resolved).ifPresent(out.paths::add);
        },
        EntityKind.DATA_FILE,
        EntityKind.DELETE_FILE);
    try (KvIterator it = v.scanPrefix(KeyPrefixes.scheduledDeletions())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        relative(ValueCodec.decode(key, kv.value(), GcFileValue.class)).ifPresent(out.paths::add);
      }
    }
    return out;
  }

  /** Hands every live and ended record of {@code kinds} to {@code each}. */
  private static void eachRecord(KvReadView v, Consumer<Object> each, EntityKind... kinds) {
    for (EntityKind kind : kinds) {
      for (byte[] prefix :
          new byte[][] {KeyPrefixes.currentOfKind(kind), KeyPrefixes.historyOfKind(kind)}) {
        try (KvIterator it = v.scanPrefix(prefix)) {
          while (it.hasNext()) {
            KeyValue kv = it.next();
            Key key = KeyCodec.decode(kv.key());
            each.accept(ValueCodec.decode(key, kv.value()));
          }
        }
      }
    }
  }

  /** The referenced paths, and how many file records could not be placed. */
  static final class Referenced {
    final TreeSet<String> paths = new TreeSet<>();
    int unresolved;
  }
}
