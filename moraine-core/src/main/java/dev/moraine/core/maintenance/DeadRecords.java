package dev.moraine.core.maintenance;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.verb.SchedulePaths;
import dev.moraine.core.view.Visibility;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The second half of an expiry (RFC 0005 §3.2): the records no retained snapshot can see, found in
 * one consistent read of the store, as stock DuckLake's expiry finds them.
 *
 * <ul>
 *   <li>a table no retained snapshot sees any version of, and that has no live version, goes with
 *       every record keyed by it: columns, partitions, sorts, files (scheduled for deletion),
 *       statistics, mappings, index definitions, schema-version records and inlined data;
 *   <li>an ended data file no retained snapshot sees goes with its column statistics, the delete
 *       files on it and the inlined deletions of its rows, and every file among them is scheduled
 *       for deletion; so does an ended delete file no retained snapshot sees;
 *   <li>an ended schema, view or macro version no retained snapshot sees goes;
 *   <li>a tag entry no retained snapshot sees goes from its object's tag record ({@link
 *       TagPruning}, applied when the batch is staged).
 * </ul>
 *
 * <p>What stays, as stock keeps it: the ended versions of a table that still lives (its old names,
 * dropped columns, partition and sort specs, column tags, index definitions), its schema-version
 * records and its inlined rows.
 *
 * <p>A version [begin, end) is dead when no retained snapshot s has begin <= s < end. Retained
 * means present at the read; a snapshot committed after the read has an id above every ended
 * version's end, so it could not see one either, and what this finds stays dead whatever lands
 * before it is written.
 */
final class DeadRecords {
  /** Data and delete files: a dead one is scheduled for deletion. */
  private static final Set<EntityKind> FILES = Set.of(EntityKind.DATA_FILE, EntityKind.DELETE_FILE);

  private final KvReadView v;
  private final Survivors survivors;
  private final long nowMicros;
  private final int unitKeys;
  private final List<MaintenanceUnit> units = new ArrayList<>();
  private final Set<Long> scheduled = new HashSet<>();
  private final Map<Long, TableValue> tables = new HashMap<>();
  private final Map<Long, SchemaValue> schemas = new HashMap<>();
  private final List<Long> prunedTags = new ArrayList<>();
  private MaintenanceUnit open;

  private DeadRecords(KvReadView v, Survivors survivors, long nowMicros, int unitKeys) {
    this.v = v;
    this.survivors = survivors;
    this.nowMicros = nowMicros;
    this.unitKeys = unitKeys;
  }

  /**
   * Finds the dead records through {@code v}, in units of at most about {@code unitKeys} keys.
   *
   * @param nowMicros the time the schedule records carry
   */
  static DeadRecords find(KvReadView v, Survivors survivors, long nowMicros, int unitKeys) {
    DeadRecords found = new DeadRecords(v, survivors, nowMicros, unitKeys);
    found.scan();
    return found;
  }

  /** The units, in the order they should land. */
  List<MaintenanceUnit> units() {
    return units;
  }

  /** The objects whose tag records hold an entry no retained snapshot sees. */
  List<Long> prunedTagObjects() {
    return prunedTags;
  }

  private void scan() {
    readSchemas();
    Set<Long> deadTables = deadTables();
    for (long tableId : deadTables) {
      dropTable(tableId);
    }
    // A dead data file goes in one unit with its statistics, the delete files on it (live ones
    // too: stock does not end the delete file of a data file whose rows were all deleted, and a
    // flush writes live delete files for ended files) and its inlined row deletions: were they
    // to land in a later batch, a re-run after a crash between the two would no longer know the
    // data file and would leave them behind.
    Map<Long, List<DeleteFileRef>> deleteFiles = new HashMap<>();
    eachHistory(
        EntityKind.DATA_FILE,
        (key, value) -> {
          DataFileValue file = (DataFileValue) value;
          long tableId = key.entity().ids()[0];
          if (!deadTables.contains(tableId) && dead(value, key.endSnapshot())) {
            List<DeleteFileRef> onTable = deleteFiles.computeIfAbsent(tableId, this::deleteFilesOf);
            MaintenanceUnit unit = unit(2 + 8);
            unit.remove(KeyCodec.encode(key));
            removeFileStats(unit, tableId, file.getDataFileId());
            schedule(unit, tableId, file.getDataFileId(), file.getPath(), file.getPathIsRelative());
            for (DeleteFileRef d : onTable) {
              if (d.value().getDataFileId() == file.getDataFileId()) {
                if (d.current() != null) {
                  unit.removeCurrent(d.current(), d.key());
                } else {
                  unit.remove(d.key());
                }
                DeleteFileValue v = d.value();
                schedule(unit, tableId, v.getDeleteFileId(), v.getPath(), v.getPathIsRelative());
              }
            }
            removeAll(unit, InlinePrefixes.fileDeletesOf(tableId, file.getDataFileId()));
            close();
          }
        });
    eachHistory(
        EntityKind.DELETE_FILE,
        (key, value) -> {
          DeleteFileValue file = (DeleteFileValue) value;
          long tableId = key.entity().ids()[0];
          if (!deadTables.contains(tableId)
              && !scheduled.contains(file.getDeleteFileId())
              && dead(value, key.endSnapshot())) {
            MaintenanceUnit unit = unit(2);
            unit.remove(KeyCodec.encode(key));
            schedule(
                unit, tableId, file.getDeleteFileId(), file.getPath(), file.getPathIsRelative());
            close();
          }
        });
    for (EntityKind kind : List.of(EntityKind.SCHEMA, EntityKind.VIEW, EntityKind.MACRO)) {
      eachHistory(
          kind,
          (key, value) -> {
            if (dead(value, key.endSnapshot())) {
              unit(1).remove(KeyCodec.encode(key));
            }
          });
    }
    close();
    try (KvIterator it = v.scanPrefix(KeyPrefixes.currentOfKind(EntityKind.TAG))) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        TagValue tags = (TagValue) ValueCodec.decode(KeyCodec.decode(kv.key()), kv.value());
        if (!TagPruning.pruned(tags, survivors).equals(tags)) {
          prunedTags.add(tags.getObjectId());
        }
      }
    }
  }

  /** Every schema's record (its live one, else its last), for resolving file paths. */
  private void readSchemas() {
    eachCurrent(
        KeyPrefixes.currentOfKind(EntityKind.SCHEMA),
        (key, value) -> schemas.put(key.ids()[0], (SchemaValue) value));
    eachHistory(
        EntityKind.SCHEMA,
        (key, value) -> schemas.putIfAbsent(key.entity().ids()[0], (SchemaValue) value));
  }

  /** Tables with no live version of which no retained snapshot sees any version. */
  private Set<Long> deadTables() {
    Set<Long> live = new HashSet<>();
    eachCurrent(
        KeyPrefixes.currentOfKind(EntityKind.TABLE),
        (key, value) -> {
          live.add(key.ids()[0]);
          tables.put(key.ids()[0], (TableValue) value);
        });
    Set<Long> dead = new TreeSet<>(Long::compareUnsigned);
    Set<Long> seen = new HashSet<>();
    eachHistory(
        EntityKind.TABLE,
        (key, value) -> {
          long id = key.entity().ids()[0];
          tables.put(id, (TableValue) value);
          if (live.contains(id)) {
            return;
          }
          if (dead(value, key.endSnapshot())) {
            if (!seen.contains(id)) {
              dead.add(id);
            }
          } else {
            seen.add(id);
            dead.remove(id);
          }
        });
    return dead;
  }

  /**
   * Removes every record of a dead table, its own versions last: a crash between two of its batches
   * leaves the table's versions in place, so the next expiry finds it dead again and finishes the
   * rest.
   */
  private void dropTable(long tableId) {
    for (EntityKind kind : EntityKind.values()) {
      if (!kind.tableScoped()) {
        continue;
      }
      eachCurrent(
          KeyPrefixes.currentOfTable(kind, tableId),
          (entity, value) -> {
            MaintenanceUnit unit = unit(2);
            unit.removeCurrent(entity, KeyCodec.encode(CurrentKey.of(entity)));
            scheduleIfFile(unit, tableId, value);
          });
      if (kind.versioned()) {
        eachHistory(
            KeyPrefixes.historyOfTable(kind, tableId),
            (key, value) -> {
              MaintenanceUnit unit = unit(2);
              unit.remove(KeyCodec.encode(key));
              scheduleIfFile(unit, tableId, value);
            });
      }
    }
    removeAll(KeyPrefixes.schemaVersionsOf(tableId));
    for (byte[] prefix : InlinePrefixes.ofTable(tableId)) {
      removeAll(prefix);
    }
    close();
    eachHistory(
        KeyPrefixes.historyOf(new EntityKey.Table(tableId)),
        (key, value) -> unit(1).remove(KeyCodec.encode(key)));
    close();
  }

  /** A delete file's record: its key, its entity when the record is live, and its value. */
  private record DeleteFileRef(byte[] key, EntityKey current, DeleteFileValue value) {}

  /** Every delete file record, live or ended, of one table. */
  private List<DeleteFileRef> deleteFilesOf(long tableId) {
    List<DeleteFileRef> out = new ArrayList<>();
    eachCurrent(
        KeyPrefixes.currentOfTable(EntityKind.DELETE_FILE, tableId),
        (entity, value) ->
            out.add(
                new DeleteFileRef(
                    KeyCodec.encode(CurrentKey.of(entity)), entity, (DeleteFileValue) value)));
    eachHistory(
        KeyPrefixes.historyOfTable(EntityKind.DELETE_FILE, tableId),
        (key, value) ->
            out.add(new DeleteFileRef(KeyCodec.encode(key), null, (DeleteFileValue) value)));
    return out;
  }

  private void removeFileStats(MaintenanceUnit unit, long tableId, long fileId) {
    byte[] sample =
        KeyCodec.encode(CurrentKey.of(new EntityKey.FileColumnStats(tableId, fileId, 0)));
    eachCurrent(
        Arrays.copyOf(sample, sample.length - 8),
        (entity, value) -> unit.removeCurrent(entity, KeyCodec.encode(CurrentKey.of(entity))));
  }

  private void removeAll(byte[] prefix) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        unit(1).remove(it.next().key());
      }
    }
  }

  private void removeAll(MaintenanceUnit unit, byte[] prefix) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        unit.remove(it.next().key());
      }
    }
  }

  private void scheduleIfFile(MaintenanceUnit unit, long tableId, Message value) {
    if (value instanceof DataFileValue f) {
      schedule(unit, tableId, f.getDataFileId(), f.getPath(), f.getPathIsRelative());
    } else if (value instanceof DeleteFileValue d) {
      schedule(unit, tableId, d.getDeleteFileId(), d.getPath(), d.getPathIsRelative());
    }
  }

  private void schedule(
      MaintenanceUnit unit, long tableId, long fileId, String path, boolean relative) {
    if (!scheduled.add(fileId)) {
      return;
    }
    TableValue table = tables.get(tableId);
    SchemaValue schema = table == null ? null : schemas.get(table.getSchemaId());
    GcFileValue.Builder record =
        table == null || schema == null
            ? GcFileValue.newBuilder()
                .setDataFileId(fileId)
                .setPath(path)
                .setPathIsRelative(relative)
            : SchedulePaths.of(schema, table, fileId, path, relative);
    CurrentKey.ScheduledDeletion key = new CurrentKey.ScheduledDeletion(fileId);
    unit.schedule(
        fileId,
        KeyCodec.encode(key),
        ValueCodec.encode(key, record.setScheduleStartMicros(nowMicros).build()));
  }

  private boolean dead(Message version, long end) {
    return survivors.endedAndUnseen(Visibility.beginOf(version), end);
  }

  /**
   * The unit being filled, or a new one when adding {@code keys} more would pass the bound. A
   * caller that needs its writes kept together asks once and adds them all to what it got.
   */
  private MaintenanceUnit unit(int keys) {
    if (open == null || open.size() + keys > unitKeys) {
      close();
      open = new MaintenanceUnit();
    }
    return open;
  }

  /** Ends the unit being filled: what follows lands in a unit of its own. */
  private void close() {
    if (open != null && open.size() > 0) {
      units.add(open);
    }
    open = null;
  }

  private void eachCurrent(byte[] prefix, BiConsumer<EntityKey, Message> each) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        each.accept(((CurrentKey.Entity) key).entity(), ValueCodec.decode(key, kv.value()));
      }
    }
  }

  private void eachHistory(EntityKind kind, BiConsumer<HistoryKey, Message> each) {
    eachHistory(KeyPrefixes.historyOfKind(kind), each);
  }

  private void eachHistory(byte[] prefix, BiConsumer<HistoryKey, Message> each) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        each.accept((HistoryKey) key, ValueCodec.decode(key, kv.value()));
      }
    }
  }

  /** The inline subspace's ranges keyed by one table (RFC 0002 §5.4). */
  static final class InlinePrefixes {
    private InlinePrefixes() {}

    static List<byte[]> ofTable(long tableId) {
      List<byte[]> prefixes = new ArrayList<>();
      prefixes.add(prefix(tableId, 0x06, 0x02));
      for (int op = 0x02; op <= 0x04; op++) {
        prefixes.add(prefix(tableId, 0x06, 0x03, op));
        prefixes.add(prefix(tableId, 0x06, 0x04, op));
      }
      for (int sub = 0x05; sub <= 0x09; sub++) {
        prefixes.add(prefix(tableId, 0x06, sub));
      }
      return prefixes;
    }

    /** {@code 06 03 04 BE64(table) BE64(file)}: the inlined deletions of one data file's rows. */
    static byte[] fileDeletesOf(long tableId, long dataFileId) {
      return ByteBuffer.allocate(19)
          .put((byte) 0x06)
          .put((byte) 0x03)
          .put((byte) 0x04)
          .putLong(tableId)
          .putLong(dataFileId)
          .array();
    }

    private static byte[] prefix(long tableId, int... lead) {
      ByteBuffer b = ByteBuffer.allocate(lead.length + 8);
      for (int x : lead) {
        b.put((byte) x);
      }
      return b.putLong(tableId).array();
    }
  }
}
