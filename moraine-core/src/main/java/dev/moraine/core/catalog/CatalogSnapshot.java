package dev.moraine.core.catalog;

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
import dev.moraine.core.view.SnapshotView;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
  private final SnapshotView view;

  private CatalogSnapshot(SnapshotView view) {
    this.view = view;
  }

  /** The one host-facing snapshot of {@code view}: made on first use and kept with the view. */
  static CatalogSnapshot of(SnapshotView view) {
    return view.facade(CatalogSnapshot::new);
  }

  /** The engine's view behind this snapshot. */
  SnapshotView view() {
    return view;
  }

  /** The snapshot id this view stands at. */
  public long snapshotId() {
    return view.snapshotId();
  }

  /** This snapshot's record: time, counters, changes_made, schema version, commit metadata. */
  public SnapshotInfo info() {
    return view.info();
  }

  /**
   * The head this view was built at, when it was built as the catalog's head view; empty for a view
   * built by time travel.
   */
  public Optional<Head> builtAtHead() {
    return view.builtAtHead();
  }

  /**
   * The snapshot log up to and including this snapshot, ascending; expired snapshots are absent.
   */
  public List<SnapshotInfo> snapshotLog() {
    return view.snapshotLog();
  }

  /**
   * The {@code ducklake_schema_versions} rows of one table or view that began at or before this
   * snapshot, ascending.
   */
  public List<SchemaVersionInfo> schemaVersions(long tableId) {
    return view.schemaVersions(tableId);
  }

  /** Every schema, by id. */
  public List<SchemaInfo> schemas() {
    return view.schemas();
  }

  /** The schema with this id. */
  public Optional<SchemaInfo> schema(long schemaId) {
    return view.schema(schemaId);
  }

  /**
   * The schema with this name (exact case). The first lookup by name loads every schema, since the
   * lake keeps no name index; it indexes them by name in memory, so later lookups, here and in the
   * head views that follow, cost a logarithmic search.
   */
  public Optional<SchemaInfo> schemaByName(String name) {
    return view.schemaByName(name);
  }

  /** Every table, by id. */
  public List<TableInfo> tables() {
    return view.tables();
  }

  /** The tables of one schema, by id (loads every table). */
  public List<TableInfo> tablesIn(long schemaId) {
    return view.tablesIn(schemaId);
  }

  /** The table with this id. */
  public Optional<TableInfo> table(long tableId) {
    return view.table(tableId);
  }

  /**
   * The table with this name (exact case) in this schema. The first lookup by name loads every
   * table, as {@link #schemaByName} explains; later ones search an in-memory index.
   */
  public Optional<TableInfo> tableByName(long schemaId, String name) {
    return view.tableByName(schemaId, name);
  }

  /**
   * Every column of a table, nested fields included, ordered by column order (ties by id); tags
   * filtered to this snapshot.
   */
  public List<ColumnInfo> columns(long tableId) {
    return view.columns(tableId);
  }

  /** A table's columns as a tree: top-level columns with their nested fields, in column order. */
  public List<ColumnNode> columnTree(long tableId) {
    return view.columnTree(tableId);
  }

  /** A table's partitioning, if it has one (the live spec with the lowest id). */
  public Optional<PartitionSpec> partitioning(long tableId) {
    return view.partitioning(tableId);
  }

  /** A table's sort key, if it has one (the live spec with the lowest id). */
  public Optional<SortSpec> sorting(long tableId) {
    return view.sorting(tableId);
  }

  /** A table's live data files, by id. */
  public List<DataFileInfo> dataFiles(long tableId) {
    return view.dataFiles(tableId);
  }

  /** A table's live delete files, by id. */
  public List<DeleteFileInfo> deleteFiles(long tableId) {
    return view.deleteFiles(tableId);
  }

  /** A table's statistics (row count, row-id counter, bytes), if recorded. */
  public Optional<TableStats> tableStats(long tableId) {
    return view.tableStats(tableId);
  }

  /** A table's per-column statistics, by column id. */
  public List<ColumnStats> columnStats(long tableId) {
    return view.columnStats(tableId);
  }

  /** One column's statistics over its table, if recorded. */
  public Optional<ColumnStats> columnStats(long tableId, long columnId) {
    return view.columnStats(tableId, columnId);
  }

  /** A table's per-file column statistics, by data file id then column id. */
  public List<FileColumnStats> fileColumnStats(long tableId) {
    return view.fileColumnStats(tableId);
  }

  /** A table's column mappings, by id. */
  public List<MappingInfo> mappings(long tableId) {
    return view.mappings(tableId);
  }

  /**
   * Every table's statistics record, by table id: as {@link #tableStats} for each table, in one
   * read of the store (for a pass over every table, such as rendering the catalog).
   */
  public List<TableStats> allTableStats() {
    return view.allTableStats();
  }

  /** Every table's column statistics, by table id then column id, in one read of the store. */
  public List<ColumnStats> allColumnStats() {
    return view.allColumnStats();
  }

  /** Every table's per-file column statistics, by table, in one read of the store. */
  public List<FileColumnStats> allFileColumnStats() {
    return view.allFileColumnStats();
  }

  /** Every table's column mappings, by table then id, in one read of the store. */
  public List<MappingInfo> allMappings() {
    return view.allMappings();
  }

  /** A table's equality-index definitions, by id. */
  public List<IndexInfo> indexes(long tableId) {
    return view.indexes(tableId);
  }

  /** The index definition with this id on this table. */
  public Optional<IndexInfo> index(long tableId, long indexId) {
    return view.index(tableId, indexId);
  }

  /** The index definition with this name on this table. */
  public Optional<IndexInfo> indexByName(long tableId, String name) {
    return view.indexByName(tableId, name);
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
    return view.inlinedRows(tableId);
  }

  /** Every view, by id. */
  public List<ViewInfo> views() {
    return view.views();
  }

  /** The views of one schema, by id. */
  public List<ViewInfo> viewsIn(long schemaId) {
    return view.viewsIn(schemaId);
  }

  /** The view with this id. */
  public Optional<ViewInfo> view(long viewId) {
    return view.view(viewId);
  }

  /** The view with this name (exact case) in this schema; indexed as {@link #tableByName}. */
  public Optional<ViewInfo> viewByName(long schemaId, String name) {
    return view.viewByName(schemaId, name);
  }

  /** Every macro, by id. */
  public List<MacroInfo> macros() {
    return view.macros();
  }

  /** The macros of one schema, by id. */
  public List<MacroInfo> macrosIn(long schemaId) {
    return view.macrosIn(schemaId);
  }

  /** The macro with this id. */
  public Optional<MacroInfo> macro(long macroId) {
    return view.macro(macroId);
  }

  /**
   * The macro with this name (exact case) in this schema, the one with the lowest id when a scalar
   * and a table macro share it; indexed as {@link #tableByName}.
   */
  public Optional<MacroInfo> macroByName(long schemaId, String name) {
    return view.macroByName(schemaId, name);
  }

  /** The tags and comments of a schema, table or view live at this snapshot. */
  public List<TagEntry> tags(long objectId) {
    return view.tags(objectId);
  }

  /** The options set in exactly this scope (no inheritance), by key. */
  public Map<String, String> options(OptionScope scope) {
    return view.options(scope);
  }

  /**
   * Every option record of the lake: each scope that has options set, in store order (global, then
   * schemas by id, then tables by id), with its options by key.
   */
  public Map<OptionScope, Map<String, String>> allOptions() {
    return view.allOptions();
  }

  /**
   * An option's value in {@code scope}, inherited table → schema → global as DuckLake does (a table
   * that does not exist at this snapshot inherits from the global scope only).
   */
  public Optional<String> option(OptionScope scope, String key) {
    return view.option(scope, key);
  }

  /** The lake's data path, if one was recorded. */
  public Optional<String> dataPath() {
    return view.dataPath();
  }

  /** The files scheduled for deletion, by data file id. */
  public List<ScheduledDeletion> scheduledDeletions() {
    return view.scheduledDeletions();
  }

  /**
   * What the lake keeps of the past as seen from this snapshot: every version begun by it, ended
   * ones included (the rows DuckLake's own tables held right after it). Reads on each call.
   */
  public CatalogHistory history() {
    return new CatalogHistory(view);
  }
}
