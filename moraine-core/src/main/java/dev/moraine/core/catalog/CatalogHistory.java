package dev.moraine.core.catalog;

import com.google.protobuf.Message;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.InlinedSchemaVersion;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SchemaVersionValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.view.Records;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.core.view.Visibility;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * What the lake keeps of the past as seen from one snapshot S: every version of every versioned
 * entity that began at or before S, the live ones and the ones that ended at or before S, as
 * DuckLake's own metadata tables hold them until snapshot expiry removes them. {@link
 * CatalogSnapshot} answers "what is live at S"; this answers "which rows did the catalog hold right
 * after S".
 *
 * <p>A version ended by a snapshot later than S is reported live (no end): after S, DuckLake's row
 * still had a NULL {@code end_snapshot}. Versions removed by snapshot expiry are gone from the
 * store and so from here, as they are from DuckLake's tables.
 *
 * <p>Every call reads the store afresh (nothing is cached here; the answers for a given S do not
 * change, except that expiry can remove ended versions). Each call is one consistent read. The
 * errors are those of {@link CatalogSnapshot}'s accessors: {@link CorruptionException}, {@link
 * StoreUnavailableException}, {@link ClosedException}, {@link FencedException}; none of them
 * changes anything, and a retry after a store failure may succeed.
 */
public final class CatalogHistory {
  private final SnapshotView snapshot;
  private final long at;

  CatalogHistory(SnapshotView snapshot) {
    this.snapshot = snapshot;
    this.at = snapshot.snapshotId();
  }

  /** The snapshot S this history is seen from. */
  public long snapshotId() {
    return at;
  }

  /** Every version of every schema begun by S, by schema id then begin snapshot. */
  public List<Versioned<SchemaInfo>> schemas() {
    return versions(EntityKind.SCHEMA, m -> Records.schema((SchemaValue) m));
  }

  /** Every version of every table (dropped ones included) begun by S, by id then begin. */
  public List<Versioned<TableInfo>> tables() {
    return versions(EntityKind.TABLE, m -> Records.table((TableValue) m));
  }

  /** Every version of every view begun by S, by id then begin. */
  public List<Versioned<ViewInfo>> views() {
    return versions(EntityKind.VIEW, m -> Records.view((ViewValue) m));
  }

  /**
   * Every version of every column of every table begun by S, by table id, column id, then begin. A
   * version's {@link ColumnInfo#tags()} are the column tags begun by S, each with its end only when
   * that is at or before S (column tags are kept inside the column record and changed in place, so
   * every version of a column carries them; read them from the latest version).
   */
  public List<Versioned<ColumnInfo>> columns() {
    return versions(EntityKind.COLUMN, m -> Records.columnThrough((ColumnValue) m, at));
  }

  /** Every version of every table's partitioning begun by S, by table, partition id, begin. */
  public List<Versioned<PartitionSpec>> partitions() {
    return versions(EntityKind.PARTITION, m -> Records.partition((PartitionValue) m));
  }

  /** Every version of every table's sort key begun by S, by table, sort id, begin. */
  public List<Versioned<SortSpec>> sorts() {
    return versions(EntityKind.SORT, m -> Records.sort((SortValue) m));
  }

  /** Every data file registered by S (expired ones with their end), by table, file id. */
  public List<Versioned<DataFileInfo>> dataFiles() {
    return versions(EntityKind.DATA_FILE, m -> Records.dataFile((DataFileValue) m));
  }

  /** Every delete file registered by S (expired ones with their end), by table, file id. */
  public List<Versioned<DeleteFileInfo>> deleteFiles() {
    return versions(EntityKind.DELETE_FILE, m -> Records.deleteFile((DeleteFileValue) m));
  }

  /** Every version of every macro begun by S, by macro id then begin. */
  public List<Versioned<MacroInfo>> macros() {
    return versions(EntityKind.MACRO, m -> Records.macro((MacroValue) m));
  }

  /**
   * The tag entries of every tagged schema, table or view begun by S, by object id; an entry's end
   * is kept only when it is at or before S. Objects with no entry begun by S are left out.
   */
  public SortedMap<Long, List<TagEntry>> tags() {
    return snapshot.loadFor(
        v -> {
          SortedMap<Long, List<TagEntry>> out = new TreeMap<>(Long::compareUnsigned);
          try (KvIterator it = v.scanPrefix(KeyPrefixes.currentOfKind(EntityKind.TAG))) {
            while (it.hasNext()) {
              KeyValue kv = it.next();
              Key key = KeyCodec.decode(kv.key());
              TagValue tag = ValueCodec.decode(key, kv.value(), TagValue.class);
              List<TagEntry> entries = Records.tagsThrough(tag, at);
              if (!entries.isEmpty()) {
                out.put(tag.getObjectId(), entries);
              }
            }
          }
          return out;
        });
  }

  /**
   * Every {@code ducklake_schema_versions} record begun by S, of every table and view (dropped ones
   * included), by table id then begin snapshot.
   */
  public List<SchemaVersionInfo> schemaVersions() {
    return snapshot.loadFor(
        v -> {
          List<SchemaVersionInfo> out = new ArrayList<>();
          try (KvIterator it = v.scanPrefix(new byte[] {0x08})) {
            while (it.hasNext()) {
              KeyValue kv = it.next();
              SchemaVersionKey key = (SchemaVersionKey) KeyCodec.decode(kv.key());
              if (Long.compareUnsigned(key.beginSnapshot(), at) > 0) {
                continue;
              }
              SchemaVersionValue value =
                  ValueCodec.decode(key, kv.value(), SchemaVersionValue.class);
              out.add(
                  new SchemaVersionInfo(
                      key.tableId(), key.beginSnapshot(), value.getSchemaVersion()));
            }
          }
          return List.copyOf(out);
        });
  }

  /**
   * The registered inlined-data tables of the whole lake as the store holds them now, by table id
   * then schema version: every inline schema record whose version no flush has dropped. The
   * registry is not versioned, so a reader at an older S must filter it (for instance by the
   * snapshot's schema version).
   */
  public List<InlinedSchemaVersion> inlinedSchemaVersions() {
    return snapshot.loadFor(
        v -> {
          Set<List<Long>> dropped = new HashSet<>();
          try (KvIterator it = v.scanPrefix(new byte[] {0x06, 0x07})) {
            while (it.hasNext()) {
              KeyValue kv = it.next();
              InlineKey.SchemaDropped key = (InlineKey.SchemaDropped) KeyCodec.decode(kv.key());
              dropped.add(List.of(key.tableId(), key.schemaVersion()));
            }
          }
          List<InlinedSchemaVersion> out = new ArrayList<>();
          try (KvIterator it = v.scanPrefix(new byte[] {0x06, 0x02})) {
            while (it.hasNext()) {
              KeyValue kv = it.next();
              InlineKey.Schema key = (InlineKey.Schema) KeyCodec.decode(kv.key());
              if (!dropped.contains(List.of(key.tableId(), key.schemaVersion()))) {
                List<Field> fields = InlineRowsReader.fields(v, key.tableId(), key.schemaVersion());
                out.add(
                    new InlinedSchemaVersion(
                        key.tableId(),
                        key.schemaVersion(),
                        fields.stream().map(Field::getName).toList(),
                        firstChunkBegin(v, key.tableId(), key.schemaVersion()),
                        fields));
              }
            }
          }
          return List.copyOf(out);
        });
  }

  /**
   * Every inlined row version of one table written by S, live or deleted, by row id then begin
   * snapshot, decoded: the contents of the table's {@code ducklake_inlined_data_<t>_<v>} tables
   * right after S. A version's end is the first deletion of its row id after its begin, kept only
   * when at or before S.
   */
  public List<Versioned<InlinedRows.Row>> inlinedRows(long tableId) {
    return snapshot.loadFor(v -> InlineRowsReader.readThrough(v, tableId, at));
  }

  /**
   * The tables whose {@code ducklake_inlined_delete_<t>} exists now: marked by the store, or
   * holding inline file-delete records (stores written before the marker), by table id. Not
   * versioned: the table appears at the first inlined delete and stays after a flush empties it.
   */
  public List<Long> inlinedDeleteTables() {
    return snapshot.loadFor(
        v -> {
          java.util.TreeSet<Long> out = new java.util.TreeSet<>(Long::compareUnsigned);
          try (KvIterator it = v.scanPrefix(new byte[] {0x06, 0x05})) {
            while (it.hasNext()) {
              out.add(((InlineKey.FileDeleteTable) KeyCodec.decode(it.next().key())).tableId());
            }
          }
          for (InlinedFileDelete d : fileDeletes(v, -1L)) {
            out.add(d.tableId());
          }
          return List.copyOf(out);
        });
  }

  /** The rows of data files deleted inline by S, of every table, by table, data file, row id. */
  public List<InlinedFileDelete> inlinedFileDeletes() {
    return snapshot.loadFor(v -> fileDeletes(v, at));
  }

  private static List<InlinedFileDelete> fileDeletes(KvReadView v, long through) {
    List<InlinedFileDelete> out = new ArrayList<>();
    try (KvIterator it = v.scanPrefix(new byte[] {0x06, 0x03, 0x04})) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        InlineFileDeleteValue value =
            ValueCodec.decode(key, kv.value(), InlineFileDeleteValue.class);
        InlineOp.FileDelete op = (InlineOp.FileDelete) ((InlineKey.Record) key).op();
        if (Long.compareUnsigned(value.getBeginSnapshot(), through) <= 0) {
          out.add(
              new InlinedFileDelete(
                  op.tableId(), op.dataFileId(), op.rowId(), value.getBeginSnapshot()));
        }
      }
    }
    return out;
  }

  /** The earliest begin snapshot among the insert chunks of one (table, schema version). */
  private static OptionalLong firstChunkBegin(KvReadView v, long tableId, long schemaVersion) {
    OptionalLong first = OptionalLong.empty();
    try (KvIterator it = v.scanPrefix(KeyPrefixes.inlineChunksOf(tableId))) {
      while (it.hasNext()) {
        Key key = KeyCodec.decode(it.next().key());
        if (key instanceof InlineKey.Record r
            && r.op() instanceof InlineOp.InsertChunk c
            && c.schemaVersion() == schemaVersion
            && (first.isEmpty()
                || Long.compareUnsigned(c.beginSnapshot(), first.getAsLong()) < 0)) {
          first = OptionalLong.of(c.beginSnapshot());
        }
      }
    }
    return first;
  }

  /**
   * Reads the current and history ranges of one kind in one consistent read, keeps the versions
   * begun by S, and orders them by entity (current key) then begin snapshot.
   */
  private <T> List<Versioned<T>> versions(EntityKind kind, Function<Message, T> convert) {
    record Found(byte[] entityKey, long begin, Message value, OptionalLong end) {}
    List<Found> found =
        snapshot.loadFor(
            v -> {
              List<Found> out = new ArrayList<>();
              scan(
                  v,
                  KeyPrefixes.currentOfKind(kind),
                  (key, m) -> out.add(new Found(key, begin(m), m, OptionalLong.empty())),
                  false);
              scan(
                  v,
                  KeyPrefixes.historyOfKind(kind),
                  (key, m) -> out.add(new Found(key, begin(m), m, end(m))),
                  true);
              return out;
            });
    Comparator<Found> order =
        Comparator.<Found, byte[]>comparing(Found::entityKey, java.util.Arrays::compareUnsigned)
            .thenComparing(Found::begin, Long::compareUnsigned);
    List<Versioned<T>> out = new ArrayList<>();
    for (Found f : found.stream().sorted(order).toList()) {
      if (Long.compareUnsigned(f.begin(), at) > 0) {
        continue; // began after S: not yet in the catalog's tables at S
      }
      // An end after S did not exist yet at S: the row was still open then.
      OptionalLong end =
          f.end().isPresent() && Long.compareUnsigned(f.end().getAsLong(), at) <= 0
              ? f.end()
              : OptionalLong.empty();
      out.add(new Versioned<>(convert.apply(f.value()), end));
    }
    return List.copyOf(out);
  }

  private interface Sink {
    void accept(byte[] currentKey, Message value);
  }

  private static void scan(KvReadView v, byte[] prefix, Sink sink, boolean history) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        Message m = ValueCodec.decode(key, kv.value());
        byte[] entityKey =
            history ? KeyCodec.encode(CurrentKey.of(((HistoryKey) key).entity())) : kv.key();
        sink.accept(entityKey, m);
      }
    }
  }

  private static long begin(Message m) {
    return Visibility.beginOf(m);
  }

  private static OptionalLong end(Message m) {
    return Visibility.endOf(m);
  }
}
