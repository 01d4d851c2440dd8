package dev.moraine.core.catalog;

import com.google.protobuf.Message;
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
 * The catalog as it stands at one snapshot: immutable in what it answers, demand-loaded in how.
 *
 * <p>Building a snapshot reads only the head and the snapshot record. Everything else is read from
 * the store the first time something asks for it, by point or range reads, and kept in this
 * snapshot from then on (RFC 0003 §3.2). Any two calls give the same answer; an accessor that
 * returns "all X" returns all of them (it loads the whole range first, never a partial one). Reads
 * never write and never wait for a commit.
 *
 * <p>Versioned entities (schemas, tables, views, columns, partitions, sorts, data and delete files,
 * macros, index definitions) are exactly as they stood at {@link #snapshotId()}, whenever they are
 * loaded. Unversioned records (table and column statistics, file column statistics, options, tag
 * containers, mappings, scheduled deletions) have no history in the lake format: as in the Rust
 * implementation, a snapshot serves the value current when it first loads it (tag and column-tag
 * entries are still filtered by their own begin and end). Ids are unsigned 64-bit values.
 *
 * <p>Thread-safe. A snapshot stays readable while its catalog is open; after the catalog is closed,
 * what was loaded is still answered and a load throws {@link ClosedException}.
 *
 * <p>Every accessor may throw {@link CorruptionException} (a record does not decode; nothing is
 * cached from the failed load, and asking again gives the same error), {@link
 * StoreUnavailableException} (the store failed; asking again may succeed), {@link ClosedException}
 * or {@link FencedException} (the store handle is gone).
 */
public final class CatalogSnapshot {
  private final CatalogReads reads;
  private final SnapshotValue snapshot;
  private final Head head;
  private final AtomicReference<ViewState> state;
  private final AtomicReference<List<SnapshotInfo>> log = new AtomicReference<>();

  CatalogSnapshot(CatalogReads reads, SnapshotValue snapshot, Head head, ViewState initial) {
    this.reads = reads;
    this.snapshot = snapshot;
    this.head = head;
    this.state = new AtomicReference<>(initial);
  }

  // ---- identity and the snapshot log ---------------------------------------------------------

  /** The snapshot id this view stands at. */
  public long snapshotId() {
    return snapshot.getSnapshotId();
  }

  /** This snapshot's record: time, counters, changes_made, schema version, commit metadata. */
  public SnapshotInfo info() {
    return Records.snapshot(snapshot);
  }

  /**
   * The head this view was built at, when it was built as the catalog's head view; empty for a view
   * built by time travel.
   */
  public Optional<Head> builtAtHead() {
    return Optional.ofNullable(head);
  }

  /**
   * The snapshot log up to and including this snapshot, ascending; expired snapshots are absent.
   */
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

  /**
   * The {@code ducklake_schema_versions} rows of one table or view that began at or before this
   * snapshot, ascending.
   */
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

  /**
   * What the lake keeps of the past as seen from this snapshot: every version begun by it, ended
   * ones included (the rows DuckLake's own tables held right after it). Reads on each call.
   */
  public CatalogHistory history() {
    return new CatalogHistory(this);
  }

  // ---- schemas -------------------------------------------------------------------------------

  /** Every schema, by id. */
  public List<SchemaInfo> schemas() {
    return all(EntityKind.SCHEMA, null, SchemaValue.class).stream().map(Records::schema).toList();
  }

  /** The schema with this id. */
  public Optional<SchemaInfo> schema(long schemaId) {
    return one(new EntityKey.Schema(schemaId), SchemaValue.class).map(Records::schema);
  }

  /**
   * The schema with this name (exact case). The first lookup by name loads every schema, since the
   * lake keeps no name index; it indexes them by name in memory, so later lookups, here and in the
   * head views that follow, cost a logarithmic search.
   */
  public Optional<SchemaInfo> schemaByName(String name) {
    return this.<SchemaValue>exactlyNamed(
            EntityKind.SCHEMA, NameIndex.SCHEMA_SCOPE, name, SchemaValue::getSchemaName)
        .map(Records::schema);
  }

  // ---- tables and their parts ----------------------------------------------------------------

  /** Every table, by id. */
  public List<TableInfo> tables() {
    return all(EntityKind.TABLE, null, TableValue.class).stream().map(Records::table).toList();
  }

  /** The tables of one schema, by id (loads every table). */
  public List<TableInfo> tablesIn(long schemaId) {
    return tables().stream().filter(t -> t.schemaId() == schemaId).toList();
  }

  /** The table with this id. */
  public Optional<TableInfo> table(long tableId) {
    return one(new EntityKey.Table(tableId), TableValue.class).map(Records::table);
  }

  /**
   * The table with this name (exact case) in this schema. The first lookup by name loads every
   * table, as {@link #schemaByName} explains; later ones search an in-memory index.
   */
  public Optional<TableInfo> tableByName(long schemaId, String name) {
    return this.<TableValue>exactlyNamed(EntityKind.TABLE, schemaId, name, TableValue::getTableName)
        .map(Records::table);
  }

  /**
   * Every column of a table, nested fields included, ordered by column order (ties by id); tags
   * filtered to this snapshot.
   */
  public List<ColumnInfo> columns(long tableId) {
    return all(EntityKind.COLUMN, tableId, ColumnValue.class).stream()
        .map(c -> Records.column(c, snapshotId()))
        .sorted(
            Comparator.comparing(ColumnInfo::columnOrder, Long::compareUnsigned)
                .thenComparing(ColumnInfo::columnId, Long::compareUnsigned))
        .toList();
  }

  /** A table's columns as a tree: top-level columns with their nested fields, in column order. */
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

  /** A table's partitioning, if it has one (the live spec with the lowest id). */
  public Optional<PartitionSpec> partitioning(long tableId) {
    return all(EntityKind.PARTITION, tableId, PartitionValue.class).stream()
        .findFirst()
        .map(Records::partition);
  }

  /** A table's sort key, if it has one (the live spec with the lowest id). */
  public Optional<SortSpec> sorting(long tableId) {
    return all(EntityKind.SORT, tableId, SortValue.class).stream().findFirst().map(Records::sort);
  }

  /** A table's live data files, by id. */
  public List<DataFileInfo> dataFiles(long tableId) {
    return all(EntityKind.DATA_FILE, tableId, DataFileValue.class).stream()
        .map(Records::dataFile)
        .toList();
  }

  /** A table's live delete files, by id. */
  public List<DeleteFileInfo> deleteFiles(long tableId) {
    return all(EntityKind.DELETE_FILE, tableId, DeleteFileValue.class).stream()
        .map(Records::deleteFile)
        .toList();
  }

  /** A table's statistics (row count, row-id counter, bytes), if recorded. */
  public Optional<TableStats> tableStats(long tableId) {
    return one(new EntityKey.TableStats(tableId), TableStatsValue.class).map(Records::tableStats);
  }

  /** A table's per-column statistics, by column id. */
  public List<ColumnStats> columnStats(long tableId) {
    return all(EntityKind.TABLE_COLUMN_STATS, tableId, TableColumnStatsValue.class).stream()
        .map(Records::columnStats)
        .toList();
  }

  /** One column's statistics over its table, if recorded. */
  public Optional<ColumnStats> columnStats(long tableId, long columnId) {
    return one(new EntityKey.TableColumnStats(tableId, columnId), TableColumnStatsValue.class)
        .map(Records::columnStats);
  }

  /** A table's per-file column statistics, by data file id then column id. */
  public List<FileColumnStats> fileColumnStats(long tableId) {
    return all(EntityKind.FILE_COLUMN_STATS, tableId, FileColumnStatsValue.class).stream()
        .map(Records::fileColumnStats)
        .toList();
  }

  /** A table's column mappings, by id. */
  public List<MappingInfo> mappings(long tableId) {
    return all(EntityKind.MAPPING, tableId, MappingValue.class).stream()
        .map(Records::mapping)
        .toList();
  }

  /** A table's equality-index definitions, by id. */
  public List<IndexInfo> indexes(long tableId) {
    return all(EntityKind.INDEX_DEFINITION, tableId, IndexValue.class).stream()
        .map(Records::index)
        .toList();
  }

  /** The index definition with this id on this table. */
  public Optional<IndexInfo> index(long tableId, long indexId) {
    return one(new EntityKey.IndexDefinition(tableId, indexId), IndexValue.class)
        .map(Records::index);
  }

  /** The index definition with this name on this table. */
  public Optional<IndexInfo> indexByName(long tableId, String name) {
    return indexes(tableId).stream().filter(i -> i.name().equals(name)).findFirst();
  }

  /**
   * A table's inlined rows live at this snapshot, decoded, in row-id order, each with the DuckLake
   * types of the table's columns at this snapshot, so {@link InlinedRows.Row#typedValues()} gives
   * the values as the insert verb took them. They are read with the table's data files, delete
   * files and file column statistics in one load and kept with them, so that these accessors agree
   * whatever commits later: a flush that lands after this view read a table moves the rows into a
   * file backdated into this snapshot's past, and this view keeps showing them inlined, beside the
   * file list it read (RFC 0003 §3.3.2).
   */
  public InlinedRows inlinedRows(long tableId) {
    Map<Long, String> types = new HashMap<>();
    for (ColumnInfo c : columns(tableId)) {
      types.put(c.columnId(), c.type());
    }
    return tableFiles(tableId).inlined().get(tableId).withColumnTypes(types);
  }

  // ---- views and macros ----------------------------------------------------------------------

  /** Every view, by id. */
  public List<ViewInfo> views() {
    return all(EntityKind.VIEW, null, ViewValue.class).stream().map(Records::view).toList();
  }

  /** The views of one schema, by id. */
  public List<ViewInfo> viewsIn(long schemaId) {
    return views().stream().filter(v -> v.schemaId() == schemaId).toList();
  }

  /** The view with this id. */
  public Optional<ViewInfo> view(long viewId) {
    return one(new EntityKey.View(viewId), ViewValue.class).map(Records::view);
  }

  /** The view with this name (exact case) in this schema; indexed as {@link #tableByName}. */
  public Optional<ViewInfo> viewByName(long schemaId, String name) {
    return this.<ViewValue>exactlyNamed(EntityKind.VIEW, schemaId, name, ViewValue::getViewName)
        .map(Records::view);
  }

  /** Every macro, by id. */
  public List<MacroInfo> macros() {
    return all(EntityKind.MACRO, null, MacroValue.class).stream().map(Records::macro).toList();
  }

  /** The macros of one schema, by id. */
  public List<MacroInfo> macrosIn(long schemaId) {
    return macros().stream().filter(m -> m.schemaId() == schemaId).toList();
  }

  /** The macro with this id. */
  public Optional<MacroInfo> macro(long macroId) {
    return one(new EntityKey.Macro(macroId), MacroValue.class).map(Records::macro);
  }

  /**
   * The macro with this name (exact case) in this schema, the one with the lowest id when a scalar
   * and a table macro share it; indexed as {@link #tableByName}.
   */
  public Optional<MacroInfo> macroByName(long schemaId, String name) {
    return this.<MacroValue>exactlyNamed(EntityKind.MACRO, schemaId, name, MacroValue::getMacroName)
        .map(Records::macro);
  }

  // ---- tags, options, scheduled deletions ----------------------------------------------------

  /** The tags and comments of a schema, table or view live at this snapshot. */
  public List<TagEntry> tags(long objectId) {
    return one(new EntityKey.Tag(objectId), TagValue.class)
        .map(t -> Records.tags(t, snapshotId()))
        .orElse(List.of());
  }

  /** The options set in exactly this scope (no inheritance), by key. */
  public Map<String, String> options(OptionScope scope) {
    return one(scopeKey(scope), OptionScopeValue.class)
        .map(o -> Map.copyOf(new TreeMap<>(o.getOptionsMap())))
        .orElse(Map.of());
  }

  /**
   * Every option record of the lake: each scope that has options set, in store order (global, then
   * schemas by id, then tables by id), with its options by key.
   */
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

  /**
   * An option's value in {@code scope}, inherited table → schema → global as DuckLake does (a table
   * that does not exist at this snapshot inherits from the global scope only).
   */
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

  /** The lake's data path, if one was recorded. */
  public Optional<String> dataPath() {
    return option(OptionScope.global(), "data_path");
  }

  /** The files scheduled for deletion, by data file id. */
  public List<ScheduledDeletion> scheduledDeletions() {
    KeyBytes prefix = new KeyBytes(new byte[] {0x04, 0x03});
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
  List<Message> recordsNamed(EntityKind kind, long scope, String name) {
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
  Iterable<KeyBytes> keysIn(EntityKind kind, long scope) {
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
  <T> T loadFor(Function<KvReadView, T> body) {
    return load(body);
  }

  private <T> T load(Function<KvReadView, T> body) {
    return reads.load("reading snapshot " + Long.toUnsignedString(snapshotId()), body);
  }

  /** What this view has loaded so far (shared with the next head view where unchanged). */
  ViewState state() {
    return state.get();
  }

  SnapshotValue record() {
    return snapshot;
  }

  /** The stored record of {@code entity} at this snapshot, for the commit path's premise reads. */
  <T extends Message> Optional<T> recordOf(EntityKey entity, Class<T> type) {
    return one(entity, type);
  }

  /**
   * Every stored record of a kind (of one table when {@code tableId} is given) at this snapshot.
   */
  <T extends Message> List<T> recordsOf(EntityKind kind, Long tableId, Class<T> type) {
    return all(kind, tableId, type);
  }

  Head head() {
    return head;
  }
}
