package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnNode;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.MappingValue;
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
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * One snapshot of the catalog as the engine reads it: the stored records of the snapshot, loaded on
 * demand and kept (RFC 0003 §3.2). {@link dev.moraine.core.catalog.SnapshotView} is the host's face
 * of one of these, and documents each public accessor of the same name here; the engine itself (the
 * verbs, the commit path, the history reads) uses the record-level reads below them.
 *
 * <p>Every load goes through the {@link ViewLoader} the view was built with: the catalog's store
 * reads for a committed snapshot.
 *
 * <p>Thread-safe; see {@link dev.moraine.core.catalog.SnapshotView} for the rules a view keeps.
 */
public final class SnapshotView {
  private final ViewLoader loader;
  private final SnapshotValue snapshot;
  private final Head head;
  private final AtomicReference<ViewState> state;
  private final AtomicReference<List<SnapshotInfo>> log = new AtomicReference<>();

  /** The host-facing wrapper of this view, made once (see {@link #facade}). */
  private final AtomicReference<Object> facade = new AtomicReference<>();

  public SnapshotView(ViewLoader loader, SnapshotValue snapshot, Head head, ViewState initial) {
    this.loader = loader;
    this.snapshot = snapshot;
    this.head = head;
    this.state = new AtomicReference<>(initial);
  }

  /**
   * The one wrapper of this view that {@code make} builds, built on first use and kept, so that a
   * host handed this view twice is handed the same object twice.
   */
  @SuppressWarnings("unchecked")
  public <T> T facade(Function<SnapshotView, T> make) {
    Object known = facade.get();
    if (known == null) {
      facade.compareAndSet(null, make.apply(this));
      known = facade.get();
    }
    return (T) known;
  }

  // ---- identity and the snapshot log ---------------------------------------------------------

  public long snapshotId() {
    return snapshot.getSnapshotId();
  }

  public SnapshotInfo info() {
    return Records.snapshot(snapshot);
  }

  public Optional<Head> builtAtHead() {
    return Optional.ofNullable(head);
  }

  public List<SnapshotInfo> snapshotLog() {
    List<SnapshotInfo> known = log.get();
    if (known != null) {
      return known;
    }
    List<SnapshotInfo> loaded =
        load(
            v -> {
              byte[] start = KeyCodec.encode(new SnapshotKey(0));
              long id = snapshotId();
              // The range ends after this snapshot's key; at the largest id it runs to the end of
              // the snapshot subspace.
              byte[] end = id == -1L ? new byte[] {0x04} : KeyCodec.encode(new SnapshotKey(id + 1));
              List<SnapshotInfo> out = new ArrayList<>();
              try (KvIterator it = v.scan(KeyRange.of(start, end))) {
                while (it.hasNext()) {
                  KeyValue kv = it.next();
                  Key key = KeyCodec.decode(kv.key());
                  out.add(
                      Records.snapshot(ValueCodec.decode(key, kv.value(), SnapshotValue.class)));
                }
              }
              return List.copyOf(out);
            });
    log.compareAndSet(null, loaded);
    return log.get();
  }

  public List<SchemaVersionInfo> schemaVersions(long tableId) {
    return load(
        v -> {
          List<SchemaVersionInfo> out = new ArrayList<>();
          try (KvIterator it = v.scanPrefix(KeyPrefixes.schemaVersionsOf(tableId))) {
            while (it.hasNext()) {
              KeyValue kv = it.next();
              SchemaVersionKey key = (SchemaVersionKey) KeyCodec.decode(kv.key());
              if (Long.compareUnsigned(key.beginSnapshot(), snapshotId()) > 0) {
                break;
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

  // ---- schemas -------------------------------------------------------------------------------

  public List<SchemaInfo> schemas() {
    return all(EntityKind.SCHEMA, null, SchemaValue.class).stream().map(Records::schema).toList();
  }

  public Optional<SchemaInfo> schema(long schemaId) {
    return one(new EntityKey.Schema(schemaId), SchemaValue.class).map(Records::schema);
  }

  public Optional<SchemaInfo> schemaByName(String name) {
    return this.<SchemaValue>exactlyNamed(
            EntityKind.SCHEMA, NameIndex.SCHEMA_SCOPE, name, SchemaValue::getSchemaName)
        .map(Records::schema);
  }

  // ---- tables and their parts ----------------------------------------------------------------

  public List<TableInfo> tables() {
    return all(EntityKind.TABLE, null, TableValue.class).stream().map(Records::table).toList();
  }

  public List<TableInfo> tablesIn(long schemaId) {
    return tables().stream().filter(t -> t.schemaId() == schemaId).toList();
  }

  public Optional<TableInfo> table(long tableId) {
    return one(new EntityKey.Table(tableId), TableValue.class).map(Records::table);
  }

  public Optional<TableInfo> tableByName(long schemaId, String name) {
    return this.<TableValue>exactlyNamed(EntityKind.TABLE, schemaId, name, TableValue::getTableName)
        .map(Records::table);
  }

  public List<ColumnInfo> columns(long tableId) {
    return all(EntityKind.COLUMN, tableId, ColumnValue.class).stream()
        .map(c -> Records.column(c, snapshotId()))
        .sorted(
            Comparator.comparing(ColumnInfo::columnOrder, Long::compareUnsigned)
                .thenComparing(ColumnInfo::columnId, Long::compareUnsigned))
        .toList();
  }

  public List<ColumnNode> columnTree(long tableId) {
    List<ColumnInfo> columns = columns(tableId);
    Map<Long, List<ColumnInfo>> children = new LinkedHashMap<>();
    List<ColumnInfo> roots = new ArrayList<>();
    for (ColumnInfo c : columns) {
      if (c.parentColumn().isPresent()) {
        children.computeIfAbsent(c.parentColumn().getAsLong(), k -> new ArrayList<>()).add(c);
      } else {
        roots.add(c);
      }
    }
    return roots.stream().map(r -> node(r, children)).toList();
  }

  private static ColumnNode node(ColumnInfo c, Map<Long, List<ColumnInfo>> children) {
    return new ColumnNode(
        c,
        children.getOrDefault(c.columnId(), List.of()).stream()
            .map(k -> node(k, children))
            .toList());
  }

  public Optional<PartitionSpec> partitioning(long tableId) {
    return all(EntityKind.PARTITION, tableId, PartitionValue.class).stream()
        .findFirst()
        .map(Records::partition);
  }

  public Optional<SortSpec> sorting(long tableId) {
    return all(EntityKind.SORT, tableId, SortValue.class).stream().findFirst().map(Records::sort);
  }

  public List<DataFileInfo> dataFiles(long tableId) {
    return all(EntityKind.DATA_FILE, tableId, DataFileValue.class).stream()
        .map(Records::dataFile)
        .toList();
  }

  public List<DeleteFileInfo> deleteFiles(long tableId) {
    return all(EntityKind.DELETE_FILE, tableId, DeleteFileValue.class).stream()
        .map(Records::deleteFile)
        .toList();
  }

  public Optional<TableStats> tableStats(long tableId) {
    return one(new EntityKey.TableStats(tableId), TableStatsValue.class).map(Records::tableStats);
  }

  public List<ColumnStats> columnStats(long tableId) {
    return all(EntityKind.TABLE_COLUMN_STATS, tableId, TableColumnStatsValue.class).stream()
        .map(Records::columnStats)
        .toList();
  }

  public Optional<ColumnStats> columnStats(long tableId, long columnId) {
    return one(new EntityKey.TableColumnStats(tableId, columnId), TableColumnStatsValue.class)
        .map(Records::columnStats);
  }

  public List<FileColumnStats> fileColumnStats(long tableId) {
    return all(EntityKind.FILE_COLUMN_STATS, tableId, FileColumnStatsValue.class).stream()
        .map(Records::fileColumnStats)
        .toList();
  }

  /** Every table's statistics record, in key order (by table id): one range read for them all. */
  public List<TableStats> allTableStats() {
    return all(EntityKind.TABLE_STATS, null, TableStatsValue.class).stream()
        .map(Records::tableStats)
        .toList();
  }

  /** Every table's column statistics, by table id then column id: one range read. */
  public List<ColumnStats> allColumnStats() {
    return all(EntityKind.TABLE_COLUMN_STATS, null, TableColumnStatsValue.class).stream()
        .map(Records::columnStats)
        .toList();
  }

  /** Every file column statistics record live at this snapshot, by table: one range read. */
  public List<FileColumnStats> allFileColumnStats() {
    return all(EntityKind.FILE_COLUMN_STATS, null, FileColumnStatsValue.class).stream()
        .map(Records::fileColumnStats)
        .toList();
  }

  /** Every table's column mappings, by table then id: one range read. */
  public List<MappingInfo> allMappings() {
    return all(EntityKind.MAPPING, null, MappingValue.class).stream()
        .map(Records::mapping)
        .toList();
  }

  public List<MappingInfo> mappings(long tableId) {
    return all(EntityKind.MAPPING, tableId, MappingValue.class).stream()
        .map(Records::mapping)
        .toList();
  }

  public List<IndexInfo> indexes(long tableId) {
    return all(EntityKind.INDEX_DEFINITION, tableId, IndexValue.class).stream()
        .map(Records::index)
        .toList();
  }

  public Optional<IndexInfo> index(long tableId, long indexId) {
    return one(new EntityKey.IndexDefinition(tableId, indexId), IndexValue.class)
        .map(Records::index);
  }

  public Optional<IndexInfo> indexByName(long tableId, String name) {
    return indexes(tableId).stream().filter(i -> i.name().equals(name)).findFirst();
  }

  public InlinedRows inlinedRows(long tableId) {
    Map<Long, String> types = new HashMap<>();
    for (ColumnInfo c : columns(tableId)) {
      types.put(c.columnId(), c.type());
    }
    return tableFiles(tableId).inlined().get(tableId).withColumnTypes(types);
  }

  // ---- views and macros ----------------------------------------------------------------------

  public List<ViewInfo> views() {
    return all(EntityKind.VIEW, null, ViewValue.class).stream().map(Records::view).toList();
  }

  public List<ViewInfo> viewsIn(long schemaId) {
    return views().stream().filter(v -> v.schemaId() == schemaId).toList();
  }

  public Optional<ViewInfo> view(long viewId) {
    return one(new EntityKey.View(viewId), ViewValue.class).map(Records::view);
  }

  public Optional<ViewInfo> viewByName(long schemaId, String name) {
    return this.<ViewValue>exactlyNamed(EntityKind.VIEW, schemaId, name, ViewValue::getViewName)
        .map(Records::view);
  }

  public List<MacroInfo> macros() {
    return all(EntityKind.MACRO, null, MacroValue.class).stream().map(Records::macro).toList();
  }

  public List<MacroInfo> macrosIn(long schemaId) {
    return macros().stream().filter(m -> m.schemaId() == schemaId).toList();
  }

  public Optional<MacroInfo> macro(long macroId) {
    return one(new EntityKey.Macro(macroId), MacroValue.class).map(Records::macro);
  }

  public Optional<MacroInfo> macroByName(long schemaId, String name) {
    return this.<MacroValue>exactlyNamed(EntityKind.MACRO, schemaId, name, MacroValue::getMacroName)
        .map(Records::macro);
  }

  // ---- tags, options, scheduled deletions ----------------------------------------------------

  public List<TagEntry> tags(long objectId) {
    return one(new EntityKey.Tag(objectId), TagValue.class)
        .map(t -> Records.tags(t, snapshotId()))
        .orElse(List.of());
  }

  public Map<String, String> options(OptionScope scope) {
    return one(scopeKey(scope), OptionScopeValue.class)
        .map(o -> Map.copyOf(new TreeMap<>(o.getOptionsMap())))
        .orElse(Map.of());
  }

  public Map<OptionScope, Map<String, String>> allOptions() {
    Map<OptionScope, Map<String, String>> out = new LinkedHashMap<>();
    for (Map.Entry<KeyBytes, Message> e : rangeOf(EntityKind.OPTION_SCOPE, null).entrySet()) {
      // An option record's scope is in its key only; the value repeats no id.
      EntityKey.OptionScope k =
          (EntityKey.OptionScope)
              ((CurrentKey.Entity) KeyCodec.decode(e.getKey().bytes())).entity();
      OptionScope scope =
          k.scopeKind() == EntityKey.OptionScope.SCHEMA
              ? new OptionScope.Schema(k.scopeId())
              : k.scopeKind() == EntityKey.OptionScope.TABLE
                  ? new OptionScope.Table(k.scopeId())
                  : OptionScope.global();
      out.put(scope, Map.copyOf(((OptionScopeValue) e.getValue()).getOptionsMap()));
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  public Optional<String> option(OptionScope scope, String key) {
    List<OptionScope> chain = new ArrayList<>();
    chain.add(scope);
    if (scope instanceof OptionScope.Table t) {
      table(t.tableId()).ifPresent(tbl -> chain.add(new OptionScope.Schema(tbl.schemaId())));
    }
    if (!(scope instanceof OptionScope.Global)) {
      chain.add(OptionScope.global());
    }
    for (OptionScope s : chain) {
      String value = options(s).get(key);
      if (value != null) {
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  public Optional<String> dataPath() {
    return option(OptionScope.global(), "data_path");
  }

  public List<ScheduledDeletion> scheduledDeletions() {
    KeyBytes prefix = new KeyBytes(KeyPrefixes.scheduledDeletions());
    return range(
            prefix,
            v -> {
              SortedMap<KeyBytes, Message> out = new TreeMap<>();
              try (KvIterator it = v.scanPrefix(prefix.bytes())) {
                while (it.hasNext()) {
                  KeyValue kv = it.next();
                  Key key = KeyCodec.decode(kv.key());
                  out.put(new KeyBytes(kv.key()), ValueCodec.decode(key, kv.value()));
                }
              }
              return out;
            })
        .values()
        .stream()
        .map(m -> Records.scheduledDeletion((GcFileValue) m))
        .toList();
  }

  // ---- names ---------------------------------------------------------------------------------

  /** The first record (lowest id) of {@code kind} in {@code scope} named exactly {@code name}. */
  private <T extends Message> Optional<T> exactlyNamed(
      EntityKind kind, long scope, String name, Function<T, String> nameOf) {
    if (name == null) {
      return Optional.empty();
    }
    for (Message m : recordsNamed(kind, scope, name)) {
      @SuppressWarnings("unchecked")
      T record = (T) m;
      if (nameOf.apply(record).equals(name)) {
        return Optional.of(record);
      }
    }
    return Optional.empty();
  }

  /**
   * Every record of a named kind (schema, table, view, macro) in {@code scope} whose name folds to
   * the same string as {@code name} ({@link Names#fold}; callers apply their own comparison to the
   * few this returns), in key order, hence by id. The kind's range and its {@link NameIndex} are
   * loaded and built on first use and kept in this view.
   */
  public List<Message> recordsNamed(EntityKind kind, long scope, String name) {
    NameIndex index = names(kind);
    SortedMap<KeyBytes, Message> range = rangeOf(kind, null);
    List<Message> out = new ArrayList<>();
    for (KeyBytes key : index.keysNamed(scope, name)) {
      out.add(range.get(key));
    }
    return out;
  }

  /**
   * The {@code current} keys of the records of a named kind in {@code scope} (the tables, views or
   * macros of one schema), lazily and in no particular order; see {@link NameIndex#keysIn}.
   */
  public Iterable<KeyBytes> keysIn(EntityKind kind, long scope) {
    return names(kind).keysIn(scope);
  }

  /** The name index of a named kind's whole range: this view's, or built now from the range. */
  private NameIndex names(EntityKind kind) {
    KeyBytes prefix = new KeyBytes(KeyPrefixes.currentOfKind(kind));
    NameIndex known = state.get().names().get(prefix);
    if (known != null) {
      return known;
    }
    // The range is installed first (or already was), and a view never replaces a range it holds,
    // so the index built from it here agrees with the range every later caller reads. Two threads
    // may both build one; the first installed is kept, and both are equal.
    NameIndex built = NameIndex.of(rangeOf(kind, null));
    return state.updateAndGet(s -> s.withNames(prefix, built)).names().get(prefix);
  }

  // ---- loading -------------------------------------------------------------------------------

  private static EntityKey.OptionScope scopeKey(OptionScope scope) {
    if (scope instanceof OptionScope.Schema s) {
      return new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, s.schemaId());
    } else if (scope instanceof OptionScope.Table t) {
      return new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, t.tableId());
    } else if (scope instanceof OptionScope.Global) {
      return EntityKey.OptionScope.global();
    }
    throw new InvalidArgumentException("scope must not be null");
  }

  /** The entity under {@code entity} at this snapshot: from this view's state, or one load. */
  private <T extends Message> Optional<T> one(EntityKey entity, Class<T> type) {
    KeyBytes key = new KeyBytes(KeyCodec.encode(CurrentKey.of(entity)));
    Optional<Message> known = state.get().known(key);
    if (known == null) {
      Optional<Message> loaded = load(v -> EntityVersions.at(v, entity, snapshotId()));
      // First load wins: a racing load of the same key is discarded, so every caller sees the one
      // value this snapshot kept (it matters for unversioned records, which can differ by time).
      known = state.updateAndGet(s -> s.withPoint(key, loaded)).known(key);
    }
    return known.map(type::cast);
  }

  /** Every entity of a kind (or of one table's kind) at this snapshot, in key order. */
  private <T extends Message> List<T> all(EntityKind kind, Long tableId, Class<T> type) {
    return rangeOf(kind, tableId).values().stream().map(type::cast).toList();
  }

  private SortedMap<KeyBytes, Message> rangeOf(EntityKind kind, Long tableId) {
    if (tableId != null && TableFiles.KINDS.contains(kind)) {
      return tableFiles(tableId).ranges().get(TableFiles.prefix(kind, tableId));
    }
    byte[] prefix =
        tableId == null
            ? KeyPrefixes.currentOfKind(kind)
            : KeyPrefixes.currentOfTable(kind, tableId);
    return range(new KeyBytes(prefix), v -> EntityVersions.allAt(v, kind, tableId, snapshotId()));
  }

  /**
   * This view's state once it holds the files and inlined rows of {@code tableId}: as it is, or
   * after one load of them all ({@link TableFiles}). A racing load of the same table is discarded,
   * as for ranges, so every caller sees the one set this view kept.
   */
  private ViewState tableFiles(long tableId) {
    ViewState known = state.get();
    if (known.inlined().containsKey(tableId)) {
      return known;
    }
    TableFiles loaded = load(v -> TableFiles.read(v, tableId, snapshotId()));
    return state.updateAndGet(s -> s.withTableFiles(tableId, loaded));
  }

  private SortedMap<KeyBytes, Message> range(
      KeyBytes prefix, Function<KvReadView, SortedMap<KeyBytes, Message>> loader) {
    SortedMap<KeyBytes, Message> known = state.get().ranges().get(prefix);
    if (known == null) {
      SortedMap<KeyBytes, Message> loaded = load(loader);
      known = state.updateAndGet(s -> s.withRange(prefix, loaded)).ranges().get(prefix);
    }
    return known;
  }

  /** One consistent load for {@link CatalogHistory}, with this view's error translation. */
  public <T> T loadFor(Function<KvReadView, T> body) {
    return load(body);
  }

  private <T> T load(Function<KvReadView, T> body) {
    String what = "reading snapshot " + Long.toUnsignedString(snapshotId());
    if (!loader.mayBeExpired(this)) {
      return loader.load(what, body);
    }
    // An expiry removes the records only the expired snapshots see, so a load for a view of one
    // would read an incomplete state: the snapshot's record is read in the same consistent read,
    // and a load that finds it gone is refused instead.
    byte[] key = KeyCodec.encode(new SnapshotKey(snapshotId()));
    return loader.load(
        what,
        v -> {
          if (v.get(key) == null) {
            throw new NotFoundException(
                ErrorCode.SNAPSHOT_EXPIRED,
                "snapshot "
                    + Long.toUnsignedString(snapshotId())
                    + " has been expired since this view of it was taken");
          }
          return body.apply(v);
        });
  }

  /** What this view has loaded so far (shared with the next head view where unchanged). */
  public ViewState state() {
    return state.get();
  }

  public SnapshotValue record() {
    return snapshot;
  }

  /** The stored record of {@code entity} at this snapshot, for the commit path's premise reads. */
  public <T extends Message> Optional<T> recordOf(EntityKey entity, Class<T> type) {
    return one(entity, type);
  }

  /**
   * Every stored record of a kind (of one table when {@code tableId} is given) at this snapshot.
   */
  public <T extends Message> List<T> recordsOf(EntityKind kind, Long tableId, Class<T> type) {
    return all(kind, tableId, type);
  }

  public Head head() {
    return head;
  }
}
