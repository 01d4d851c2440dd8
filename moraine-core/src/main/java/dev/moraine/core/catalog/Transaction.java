package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.FlushedInline;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.verb.ColumnVerbs;
import dev.moraine.core.verb.CompactionVerbs;
import dev.moraine.core.verb.DataFileVerbs;
import dev.moraine.core.verb.DeleteAndExpiryVerbs;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.verb.IndexVerbs;
import dev.moraine.core.verb.InlineFlushVerbs;
import dev.moraine.core.verb.InlineRun;
import dev.moraine.core.verb.InlineVerbs;
import dev.moraine.core.verb.MacroVerbs;
import dev.moraine.core.verb.MaintenanceWrites;
import dev.moraine.core.verb.OptionVerbs;
import dev.moraine.core.verb.PartitionAndSortVerbs;
import dev.moraine.core.verb.RewriteVerbs;
import dev.moraine.core.verb.SchemaVerbs;
import dev.moraine.core.verb.StagedEntities;
import dev.moraine.core.verb.StatsVerbs;
import dev.moraine.core.verb.TableVerbs;
import dev.moraine.core.verb.TagVerbs;
import dev.moraine.core.verb.VerbState;
import dev.moraine.core.verb.ViewVerbs;
import dev.moraine.core.view.NameIndex;
import dev.moraine.core.view.Names;
import dev.moraine.core.view.Records;
import dev.moraine.core.view.SnapshotView;
import java.util.List;
import java.util.Optional;

/**
 * The handle a commit closure receives: the premise snapshot the commit builds on, and the verbs.
 *
 * <p><b>Reads.</b> {@link #premise()} is the catalog exactly as the commit's premise left it. The
 * lookups on this handle ({@link #schemaByName}, {@link #tableByName}, {@link #table}, {@link
 * #columns}, {@link #tableStats}) see the closure's own staged changes on top of the premise, so a
 * table created earlier in the closure is found by the next verb.
 *
 * <p><b>Verbs.</b> Each verb validates against what this handle sees and, on bad input, throws a
 * typed {@link MoraineException} and stages nothing (earlier verbs of the closure stay staged; if
 * the closure lets the exception escape, the commit writes nothing at all). Ids are allocated from
 * the premise's counters: {@code next_catalog_id} for schemas, tables and views, {@code
 * next_file_id} for files, and each table's {@code next_row_id} for row ids. Names compare ASCII
 * case-insensitively, as in DuckLake.
 *
 * <p><b>Indexed tables.</b> On a table that carries equality indexes (created by the Rust
 * implementation), {@link #insertInlined}, {@link #deleteRowInline} and {@link #updateRowInline} of
 * an inlined row keep the entries of the table's indexes when all of them are ready (RFC 0002
 * §10.2): a row gets the entries of its values, a deleted row gives its entries up, an update does
 * both, all in the same commit. When the closure has returned, the commit checks its values against
 * the indexes declared UNIQUE, after its removals, and is refused with {@link
 * DuplicateIndexValueException}, writing nothing, if a value is held by another row (of the
 * premise, or of the same commit). With a {@link FileIndexValues} in the catalog's options, {@link
 * #registerDataFile}, {@link #registerDeleteFile}, {@link #flushInlined} and the inline delete or
 * update of a data-file row keep the entries too, reading the rows' values from the files. The
 * verbs whose entries this library cannot derive ({@link #registerDataFileByName}, {@link
 * #expireDataFile}, {@link #expireDeleteFile}, the file verbs without a {@link FileIndexValues},
 * and any row change while an index is building, maintaining or poisoned), and {@link #dropColumn}
 * and {@link #changeColumnType} of a column an index names, throw {@link IndexedTableException} and
 * stage nothing (RFC 0002 §10.1). Every other verb, and every verb on other tables, works as usual.
 *
 * <p>A handle belongs to one run of the closure and to the thread running it; do not keep it past
 * the closure's return.
 */
public final class Transaction {
  // Every verb area works on the one VerbState below; the handle is confined to the thread
  // running the closure, so none of this is shared or guarded.
  private final VerbState state;
  private final StagedEntities staged;
  private final SchemaVerbs schemas;
  private final TableVerbs tables;
  private final ColumnVerbs columnVerbs;
  private final DataFileVerbs dataFiles;
  private final DeleteAndExpiryVerbs deletes;
  private final ViewVerbs views;
  private final StatsVerbs stats;
  private final OptionVerbs options;
  private final PartitionAndSortVerbs layout;
  private final MacroVerbs macros;
  private final TagVerbs tags;
  private final InlineVerbs inlined;
  private final IndexVerbs indexVerbs;
  private final InlineFlushVerbs inlineFlush;
  private final CompactionVerbs compaction;
  private final RewriteVerbs rewrites;
  private boolean sealed;
  private String author;
  private String commitMessage;
  private String commitExtraInfo;

  Transaction(SnapshotView premise, SnapshotValue premiseRecord, CatalogOptions options) {
    this.state = new VerbState(premise, premiseRecord, options, CatalogSnapshot.of(premise));
    this.staged = state.staged;
    this.schemas = new SchemaVerbs(state);
    this.columnVerbs = new ColumnVerbs(state);
    this.tables = new TableVerbs(state, columnVerbs);
    this.dataFiles = new DataFileVerbs(state);
    this.deletes = new DeleteAndExpiryVerbs(state);
    this.views = new ViewVerbs(state);
    this.stats = new StatsVerbs(state);
    this.options = new OptionVerbs(state);
    this.layout = new PartitionAndSortVerbs(state);
    this.macros = new MacroVerbs(state);
    this.tags = new TagVerbs(state);
    InlineRun inlineRun = new InlineRun(state);
    this.inlined = new InlineVerbs(state, inlineRun);
    this.indexVerbs = new IndexVerbs(state, inlineRun);
    this.inlineFlush = new InlineFlushVerbs(state, inlineRun, dataFiles, deletes);
    this.compaction = new CompactionVerbs(state, dataFiles, inlineRun);
    this.rewrites = new RewriteVerbs(state, dataFiles, inlineRun);
  }

  // ---- reads -----------------------------------------------------------------------------------

  /** The catalog as the commit's premise left it (without this closure's changes). */
  public CatalogSnapshot premise() {
    return CatalogSnapshot.of(staged.premise());
  }

  /** The snapshot id this commit will mint if it lands as a snapshot-minting commit. */
  public long newSnapshotId() {
    return state.newSnapshotId;
  }

  /** The schema with this id, as this closure sees it. */
  public Optional<SchemaInfo> schema(long schemaId) {
    return staged.get(new EntityKey.Schema(schemaId), SchemaValue.class).map(Records::schema);
  }

  /** The schema with this name (case-insensitive), as this closure sees it. */
  public Optional<SchemaInfo> schemaByName(String name) {
    Names.nonEmpty("schema", name);
    return staged.named(EntityKind.SCHEMA, NameIndex.SCHEMA_SCOPE, name, SchemaValue.class).stream()
        .filter(s -> Names.same(s.getSchemaName(), name))
        .findFirst()
        .map(Records::schema);
  }

  /** The table with this id, as this closure sees it. */
  public Optional<TableInfo> table(long tableId) {
    return state.liveTable(tableId).map(Records::table);
  }

  /** The table with this name (case-insensitive) in this schema, as this closure sees it. */
  public Optional<TableInfo> tableByName(long schemaId, String name) {
    Names.nonEmpty("table", name);
    return staged.named(EntityKind.TABLE, schemaId, name, TableValue.class).stream()
        .filter(t -> Names.same(t.getTableName(), name))
        .findFirst()
        .map(Records::table);
  }

  /** The live columns of a table, nested fields included, ordered by column order. */
  public List<ColumnInfo> columns(long tableId) {
    return state.columnRecords(tableId).stream()
        .sorted(
            (a, b) ->
                a.getColumnOrder() != b.getColumnOrder()
                    ? Long.compareUnsigned(a.getColumnOrder(), b.getColumnOrder())
                    : Long.compareUnsigned(a.getColumnId(), b.getColumnId()))
        .map(c -> Records.column(c, state.newSnapshotId))
        .toList();
  }

  /** The statistics of a table (its record count and next row id), as this closure sees them. */
  public Optional<TableStats> tableStats(long tableId) {
    return staged
        .get(new EntityKey.TableStats(tableId), TableStatsValue.class)
        .map(Records::tableStats);
  }

  // ---- schemas ---------------------------------------------------------------------------------

  /**
   * Creates a schema. Its path is its name and a slash, relative to the lake's data path.
   *
   * @return the new schema's id
   * @throws InvalidArgumentException if the name is empty or unusable in a path; nothing staged
   * @throws AlreadyExistsException if a schema of that name exists; nothing staged
   */
  public long createSchema(String name) {
    ensureOpen();
    return schemas.create(name);
  }

  /**
   * Drops an empty schema.
   *
   * @throws NotFoundException if no such schema is live; nothing staged
   * @throws InvalidArgumentException if it is the {@code main} schema (id 0) or still holds tables,
   *     views or macros; nothing staged
   */
  public void dropSchema(long schemaId) {
    ensureOpen();
    schemas.drop(schemaId);
  }

  // ---- tables ----------------------------------------------------------------------------------

  /**
   * Creates a table with its columns. Column ids and column orders are given from 1 in pre-order (a
   * nested column before its fields); the table's statistics start at zero.
   *
   * @return the new table's id
   * @throws NotFoundException if the schema is not live; nothing staged
   * @throws AlreadyExistsException if a table or view of that name is in the schema, or two sibling
   *     columns share a name; nothing staged
   * @throws InvalidArgumentException for an unusable name, no columns, a type DuckLake cannot name
   *     or a nested type with the wrong number of fields; nothing staged
   */
  public long createTable(long schemaId, String name, List<ColumnDef> columns) {
    ensureOpen();
    return tables.create(schemaId, name, columns);
  }

  /**
   * Renames a table within its schema (recorded as {@code created_table} under the new name, as
   * stock DuckLake records a rename).
   *
   * @throws NotFoundException if the table is not live; nothing staged
   * @throws AlreadyExistsException if another table or view of the schema has that name (renaming
   *     to the table's own name in another case is allowed); nothing staged
   * @throws InvalidArgumentException for an unusable name or the table's current name; nothing
   *     staged
   */
  public void renameTable(long tableId, String newName) {
    ensureOpen();
    tables.rename(tableId, newName);
  }

  /**
   * Drops a table with everything that belongs to it: columns, data and delete files, partition and
   * sort specs, index definitions (all ended into history), its statistics and its option scope
   * (removed). File column statistics stay, as in the Rust implementation, so that a read of an
   * older snapshot still finds them.
   *
   * @throws NotFoundException if the table is not live; nothing staged
   */
  public void dropTable(long tableId) {
    ensureOpen();
    tables.drop(tableId);
  }

  // ---- columns ---------------------------------------------------------------------------------

  /**
   * Adds a top-level column (with its fields, for a nested type) after the table's last column.
   * Column ids continue from the table's {@code next_column_id} and are never reused.
   *
   * @return the new column's id
   * @throws NotFoundException if the table is not live; nothing staged
   * @throws AlreadyExistsException if a top-level column has that name; nothing staged
   * @throws InvalidArgumentException for a bad definition (see {@link #createTable}); nothing
   *     staged
   */
  public long addColumn(long tableId, ColumnDef def) {
    ensureOpen();
    return columnVerbs.add(tableId, def);
  }

  /**
   * Drops a column and every field beneath it, with their table column statistics.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   * @throws InvalidArgumentException if it is the table's last top-level column; nothing staged
   */
  public void dropColumn(long tableId, long columnId) {
    ensureOpen();
    columnVerbs.drop(tableId, columnId);
  }

  /**
   * Renames a column (a nested field keeps its parent).
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   * @throws AlreadyExistsException if a sibling has that name; nothing staged
   * @throws InvalidArgumentException for an empty name; nothing staged
   */
  public void renameColumn(long tableId, long columnId, String newName) {
    ensureOpen();
    columnVerbs.rename(tableId, columnId, newName);
  }

  // ---- data files ------------------------------------------------------------------------------

  /**
   * Registers a data file. Its id comes from {@code next_file_id}; its rows get the ids {@code
   * next_row_id ..< next_row_id + recordCount} of the table, which advance by {@code recordCount};
   * the table's record count and size grow by the file's. Its column statistics are stored as given
   * and widen the table's, as stock DuckLake merges them (RFC 0004 §8.2 item 3): give every leaf
   * column's statistics, read from the file's footer. A column the file gives none for has unknown
   * bounds from then on (its table record is removed), so that readers such as DuckDB never skip
   * the file's rows on bounds that do not describe them.
   *
   * @return the new data file's id
   * @throws NotFoundException if the table is not live, or a statistics entry names a column that
   *     is not; nothing staged
   * @throws InvalidArgumentException for a negative count or size, an empty path or format, two
   *     statistics entries for one column, partition values that do not match the table's live
   *     partition spec key for key, or a row range past the largest row id; nothing staged
   * @throws CorruptionException if the table has no statistics record; nothing staged
   */
  public long registerDataFile(long tableId, NewDataFile file) {
    ensureOpen();
    return dataFiles.register(tableId, file);
  }

  /**
   * Registers a data file written without field ids, mapped to the table by name, as DuckLake's
   * {@code ducklake_add_data_files} does: {@code fields} are the file's own columns (nested fields
   * included) in the file's order, each resolved ASCII case-insensitively against the live columns
   * under the matching table column. The commit stages a {@code map_by_name} column mapping (one
   * name-mapping row per field, numbered from 0 in the file's pre-order) whose id is {@code
   * next_file_id}, and the data file, with the next id, naming it; otherwise as {@link
   * #registerDataFile}. Every live column must be in the file.
   *
   * @return the new data file's id (the mapping's id is one less)
   * @throws NotFoundException if the table is not live, a field names no live column under its
   *     parent, or a statistics entry names a column that is not; nothing staged
   * @throws InvalidArgumentException for no fields, an empty field name, two fields of one parent
   *     with the same name, a live column the file lacks, or any input {@link #registerDataFile}
   *     refuses; nothing staged
   * @throws CorruptionException if the table has no statistics record; nothing staged
   */
  public long registerDataFileByName(long tableId, NewDataFile file, List<FileField> fields) {
    ensureOpen();
    return dataFiles.registerByName(tableId, file, fields, false);
  }

  /**
   * As {@link #registerDataFileByName(long, NewDataFile, List)}, but with {@code allowMissing} a
   * live column the file lacks is allowed (DuckLake's {@code allow_missing => true}): it gets no
   * mapping row, and readers see it as its default.
   *
   * @return the new data file's id (the mapping's id is one less)
   * @throws NotFoundException as {@link #registerDataFileByName(long, NewDataFile, List)}; nothing
   *     staged
   * @throws InvalidArgumentException as {@link #registerDataFileByName(long, NewDataFile, List)},
   *     except for a missing column when {@code allowMissing}; nothing staged
   * @throws CorruptionException if the table has no statistics record; nothing staged
   */
  public long registerDataFileByName(
      long tableId, NewDataFile file, List<FileField> fields, boolean allowMissing) {
    ensureOpen();
    return dataFiles.registerByName(tableId, file, fields, allowMissing);
  }

  /**
   * Moves a table to another schema (keeping its id, columns and files).
   *
   * @throws NotFoundException if the table or the schema is not live; nothing staged
   * @throws AlreadyExistsException if the target schema has a table or view of that name; nothing
   *     staged
   * @throws InvalidArgumentException if the table is already in that schema; nothing staged
   */
  public void moveTable(long tableId, long schemaId) {
    ensureOpen();
    tables.move(tableId, schemaId);
  }

  /**
   * Changes a column's type. The new type must be one DuckLake can name; whether the data files can
   * be read under it (DuckLake allows only widening promotions) is the caller's to know.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   * @throws InvalidArgumentException for a type DuckLake cannot name, a nested type, or a column
   *     that is nested or has fields; nothing staged
   */
  public void changeColumnType(long tableId, long columnId, String type) {
    ensureOpen();
    columnVerbs.changeType(tableId, columnId, type);
  }

  /**
   * Sets a column's default (DuckLake's textual form), or drops it when {@code value} is null. A
   * dropped default is stored as the text {@code NULL}, as stock DuckLake stores it (and as a
   * column created without a default carries it).
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   */
  public void setColumnDefault(long tableId, long columnId, String value) {
    ensureOpen();
    columnVerbs.setDefault(tableId, columnId, value);
  }

  /**
   * Allows or refuses nulls in a column ({@code SET NOT NULL} is {@code nullsAllowed = false}).
   * Whether the existing data has nulls is the caller's to know.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   */
  public void setColumnNullable(long tableId, long columnId, boolean nullsAllowed) {
    ensureOpen();
    columnVerbs.setNullable(tableId, columnId, nullsAllowed);
  }

  // ---- partition and sort keys -----------------------------------------------------------------

  /**
   * Sets a table's partition key ({@code ALTER TABLE ... SET PARTITIONED BY}), replacing the live
   * one, which ends into history (files written under it keep naming it). The new spec's id comes
   * from {@code next_catalog_id}; data files registered afterwards must carry one partition value
   * per key. Recorded as {@code altered_table} with a {@code schema_versions} record.
   *
   * @return the new partition spec's id
   * @throws NotFoundException if the table, or a column a key names, is not live; nothing staged
   * @throws InvalidArgumentException for no keys (reset instead), a null key, an empty transform,
   *     or one column named twice; nothing staged
   */
  public long setPartitionKey(long tableId, List<PartitionKey> keys) {
    ensureOpen();
    return layout.setPartitioning(tableId, keys);
  }

  /**
   * Unpartitions a table ({@code ALTER TABLE ... RESET PARTITIONED BY}): its live partition spec
   * ends into history. Recorded as {@code altered_table} with a {@code schema_versions} record.
   *
   * @throws NotFoundException if the table is not live or has no partition key; nothing staged
   */
  public void resetPartitionKey(long tableId) {
    ensureOpen();
    layout.resetPartitioning(tableId);
  }

  /**
   * Sets a table's sort key ({@code ALTER TABLE ... SET SORTED BY}), replacing the live one, which
   * ends into history. The new spec's id comes from {@code next_catalog_id}. Recorded as {@code
   * altered_table}; {@code schema_version} grows but no {@code schema_versions} record is written,
   * as stock DuckLake does.
   *
   * @return the new sort spec's id
   * @throws NotFoundException if the table is not live; nothing staged
   * @throws InvalidArgumentException for no keys (reset instead), a null key, or an empty
   *     expression, dialect, direction or null order; nothing staged
   */
  public long setSortKey(long tableId, List<SortKey> keys) {
    ensureOpen();
    return layout.setSorting(tableId, keys);
  }

  /**
   * Unsorts a table ({@code ALTER TABLE ... RESET SORTED BY}): its live sort spec ends into
   * history. Recorded like {@link #setSortKey}.
   *
   * @throws NotFoundException if the table is not live or has no sort key; nothing staged
   */
  public void resetSortKey(long tableId) {
    ensureOpen();
    layout.resetSorting(tableId);
  }

  // ---- views -----------------------------------------------------------------------------------

  /**
   * Creates a view.
   *
   * @return the new view's id (from {@code next_catalog_id})
   * @throws NotFoundException if the schema is not live; nothing staged
   * @throws AlreadyExistsException if a table or view of that name is in the schema; nothing staged
   * @throws InvalidArgumentException for an unusable name, or an empty dialect or SQL text; nothing
   *     staged
   */
  public long createView(long schemaId, String name, String dialect, String sql) {
    ensureOpen();
    return views.create(schemaId, name, dialect, sql);
  }

  /**
   * Replaces a view's definition.
   *
   * @throws NotFoundException if the view is not live; nothing staged
   * @throws InvalidArgumentException for an empty dialect or SQL text; nothing staged
   */
  public void alterView(long viewId, String dialect, String sql) {
    ensureOpen();
    views.alter(viewId, dialect, sql);
  }

  /**
   * Renames a view. DuckLake records a rename as the creation of the view under its new name (same
   * id), and so does this verb.
   *
   * @throws NotFoundException if the view is not live; nothing staged
   * @throws AlreadyExistsException if a table or view of the schema has that name; nothing staged
   * @throws InvalidArgumentException for an unusable name; nothing staged
   */
  public void renameView(long viewId, String newName) {
    ensureOpen();
    views.rename(viewId, newName);
  }

  /**
   * Drops a view.
   *
   * @throws NotFoundException if the view is not live; nothing staged
   */
  public void dropView(long viewId) {
    ensureOpen();
    views.drop(viewId);
  }

  // ---- macros ----------------------------------------------------------------------------------

  /**
   * Creates a scalar or table macro ({@code CREATE MACRO}) with its implementations, numbered from
   * 0 in the order given, and their parameters, numbered likewise. Its id comes from {@code
   * next_catalog_id}. Recorded as {@code created_scalar_macro} or {@code created_table_macro};
   * {@code schema_version} grows, with no {@code schema_versions} record.
   *
   * @return the new macro's id
   * @throws NotFoundException if the schema is not live; nothing staged
   * @throws AlreadyExistsException if the schema has a macro of that name (case-insensitive) and
   *     type; nothing staged
   * @throws InvalidArgumentException for an empty name, no implementations, implementations of
   *     different types, a type other than {@code scalar} or {@code table}, an empty dialect or SQL
   *     text, or an incomplete parameter; nothing staged
   */
  public long createMacro(long schemaId, String name, NewMacro macro) {
    ensureOpen();
    return macros.create(schemaId, name, macro);
  }

  /**
   * Drops a macro ({@code DROP MACRO} or {@code DROP MACRO TABLE}): its record ends into history.
   * Recorded as {@code dropped_scalar_macro} or {@code dropped_table_macro} by its type.
   *
   * @throws NotFoundException if the macro is not live; nothing staged
   */
  public void dropMacro(long macroId) {
    ensureOpen();
    macros.drop(macroId);
  }

  // ---- comments and tags -----------------------------------------------------------------------

  /**
   * Sets a tag on a schema, table, view or column: the key's live entry, if any, ends at this
   * commit's snapshot and the new value begins there. Recorded as stock DuckLake records {@code
   * COMMENT ON}: {@code altered_table} (table or column) or {@code altered_view}, with {@code
   * schema_version} grown and no {@code schema_versions} record. A column's record is overwritten
   * in place. Stock DuckLake has no schema comments; a schema's tag is recorded as the Rust
   * implementation records it: {@code schema_version} grown and no change kind.
   *
   * @throws NotFoundException if the schema, table, view or column is not live; nothing staged
   * @throws InvalidArgumentException for a null target, an empty key or a null value; nothing
   *     staged
   */
  public void setTag(TagTarget target, String key, String value) {
    ensureOpen();
    tags.set(target, key, value);
  }

  /**
   * Removes a tag: its live entry ends at this commit's snapshot. Recorded like {@link #setTag}.
   *
   * @throws NotFoundException if the target is not live or has no live tag with that key; nothing
   *     staged
   * @throws InvalidArgumentException for a null target or an empty key; nothing staged
   */
  public void removeTag(TagTarget target, String key) {
    ensureOpen();
    tags.remove(target, key);
  }

  /**
   * Sets the comment of a schema, table, view or column ({@code COMMENT ON ... IS 'text'}): the tag
   * with key {@code comment}, as DuckLake keeps it. Recorded and refused like {@link #setTag}.
   */
  public void setComment(TagTarget target, String comment) {
    ensureOpen();
    tags.set(target, "comment", comment);
  }

  // ---- statistics ------------------------------------------------------------------------------

  /**
   * Overrides a table's record count and size; its next row id is kept. The commit mints a snapshot
   * with no {@code changes_made} entry and the schema version carried forward.
   *
   * @throws NotFoundException if the table is not live; nothing staged
   * @throws InvalidArgumentException for a negative count or size; nothing staged
   * @throws CorruptionException if the table has no statistics record; nothing staged
   */
  public void updateTableStats(long tableId, long recordCount, long fileSizeBytes) {
    ensureOpen();
    stats.updateTable(tableId, recordCount, fileSizeBytes);
  }

  /**
   * Overrides a column's table-level statistics. Empty fields are stored absent.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   */
  public void updateColumnStats(
      long tableId,
      long columnId,
      Optional<Boolean> containsNull,
      Optional<Boolean> containsNan,
      Optional<String> minValue,
      Optional<String> maxValue,
      Optional<String> extraStats) {
    ensureOpen();
    stats.updateColumn(
        tableId, columnId, containsNull, containsNan, minValue, maxValue, extraStats);
  }

  // ---- delete files and expiry -----------------------------------------------------------------

  /**
   * Registers a delete file for one live data file of the table (one live delete file per data
   * file, as in the Rust implementation). Its id comes from {@code next_file_id}; the table's
   * statistics are unchanged. Conflicts with a concurrent delete only when both target the same
   * data file.
   *
   * @return the new delete file's id
   * @throws NotFoundException if the table, or the target data file in it, is not live; nothing
   *     staged
   * @throws InvalidArgumentException for a negative count or size, more deleted rows than the data
   *     file has, an empty path or format, or a data file that already has a live delete file;
   *     nothing staged
   */
  public long registerDeleteFile(long tableId, NewDeleteFile file) {
    ensureOpen();
    return deletes.registerDeleteFile(tableId, file);
  }

  /**
   * Expires a data file: ends it (and any delete file targeting it) and takes its rows and bytes
   * off the table's statistics; the next row id is kept. Recorded as {@code merge_adjacent}, the
   * kind whose conflict profile an expiry has.
   *
   * <p>This ends a file's rows; it is not a compaction. To replace small files by one, use {@link
   * #mergeDataFiles}, and to drop a file's deleted rows, {@link #rewriteDataFiles}: both keep the
   * rows' ids and record what stock DuckLake records (an expiry plus a registration gives the rows
   * new ids and records an insert; RFC 0005 §1).
   *
   * @throws NotFoundException if the data file is not live in the table; nothing staged
   */
  public void expireDataFile(long tableId, long dataFileId) {
    ensureOpen();
    deletes.expireDataFile(tableId, dataFileId);
  }

  /**
   * Expires a delete file. Recorded as {@code rewrite_delete}.
   *
   * @throws NotFoundException if the delete file is not live in the table; nothing staged
   */
  public void expireDeleteFile(long tableId, long deleteFileId) {
    ensureOpen();
    deletes.expireDeleteFile(tableId, deleteFileId);
  }

  /**
   * Merges data files of a table into one, as stock DuckLake's {@code
   * ducklake_merge_adjacent_files} records a merge. The host has written {@code output}: every row
   * of the inputs, nothing else, each with its own row id and the snapshot that inserted it (the
   * Parquet columns {@code _ducklake_internal_row_id} and {@code _ducklake_internal_snapshot_id},
   * with DuckLake's field ids), with field ids for the table's columns and its column statistics.
   *
   * <p>The output replaces the inputs at every snapshot: it begins at the earliest input's {@code
   * begin_snapshot}, and the inputs' data file, file column statistics and ended delete file
   * records are removed rather than ended, so time travel reads the output and filters its rows by
   * their snapshot, as in stock DuckLake. Its {@code row_id_start} is the first input's when the
   * inputs' row ids form one run, and absent otherwise; its {@code partial_max} is the last
   * snapshot whose rows it holds. The table's {@code next_row_id}, record count, byte count and
   * column statistics stay as they are; the inputs are scheduled for deletion (their objects are
   * removed by file cleanup, not here); the output takes the id {@code next_file_id}. Recorded as
   * {@code merge_adjacent:<table>} and nothing else, so a concurrent insert into the table or alter
   * of it is a benign race, and a concurrent delete from it, drop of it, or another compaction of
   * it is a conflict.
   *
   * <p>Name the inputs by id, chosen before the commit: the closure may run again after a benign
   * race, and choosing from {@link #premise()} there would take in files the output does not hold.
   * Such a re-run is refused by the record count check below instead of losing rows.
   *
   * @param inputFileIds the data files to merge, at least two, each live and without a live delete
   *     file, all in one partition
   * @return the merged file's id
   * @throws CompactionInputNotLiveException if an input is not a live data file of the table (a
   *     concurrent commit merged, rewrote or expired it); nothing staged
   * @throws NotFoundException if the table is not live, or a statistics entry names a column that
   *     is not; nothing staged
   * @throws InvalidArgumentException if fewer than two inputs are named, one is named twice or has
   *     a live delete file, the inputs lie in different partitions, the output's partition values
   *     are not theirs, its record count is not the sum of theirs, or a field of it is invalid;
   *     nothing staged
   */
  public long mergeDataFiles(long tableId, List<Long> inputFileIds, NewDataFile output) {
    ensureOpen();
    return compaction.merge(tableId, inputFileIds, output);
  }

  /**
   * Rewrites data files of a table without their deleted rows, as stock DuckLake's {@code
   * ducklake_rewrite_data_files} records a rewrite. The host has written {@code output}: every row
   * of the inputs that no deletion at the premise removes (neither the input's live delete file nor
   * a row deleted inline), nothing else, each with its own row id in the Parquet column {@code
   * _ducklake_internal_row_id} (DuckLake's field id), with field ids for the table's columns and
   * its column statistics.
   *
   * <p>Unlike a merge, a rewrite changes the table from this snapshot on only: the inputs and their
   * delete files end here, so time travel to an older snapshot still reads them with their
   * deletions (their rows deleted inline stay recorded for those snapshots), and nothing is
   * scheduled for deletion (snapshot expiry schedules the inputs once no snapshot sees them). The
   * output begins at the new snapshot with no {@code row_id_start} (its rows carry their ids) and
   * no {@code partial_max}, and takes the id {@code next_file_id}. When no live data file of the
   * table is left with deletions, the table's record count, byte count and column statistics are
   * counted afresh from its files and its live inlined rows, as stock DuckLake does; otherwise they
   * stay as they are. {@code next_row_id} never moves. Recorded as {@code rewrite_delete:<table>}
   * and nothing else, so a concurrent insert into the table or alter of it is a benign race, and a
   * concurrent delete from it, drop of it, or another compaction of it is a conflict.
   *
   * <p>Name the inputs by id, chosen before the commit; a re-run after a benign race whose premise
   * no longer holds them live is refused, never silently changed.
   *
   * @param inputFileIds the data files to rewrite, at least one, each live, each with deleted rows,
   *     all in one partition
   * @return the rewritten file's id
   * @throws CompactionInputNotLiveException if an input is not a live data file of the table;
   *     nothing staged
   * @throws NotFoundException if the table is not live, or a statistics entry names a column that
   *     is not; nothing staged
   * @throws InvalidArgumentException if no input is named, one is named twice or has no deleted
   *     rows, no row of the inputs survives, the inputs lie in different partitions, the output's
   *     partition values are not theirs, its record count is not the number of surviving rows, a
   *     field of it is invalid, or this commit also inlines into, deletes from or flushes the
   *     table; nothing staged
   */
  public long rewriteDataFiles(long tableId, List<Long> inputFileIds, NewDataFile output) {
    ensureOpen();
    return rewrites.rewrite(tableId, inputFileIds, output);
  }

  // ---- options ---------------------------------------------------------------------------------

  /**
   * Sets an option in a scope. Options live outside DuckLake's snapshot protocol: a commit that
   * only sets or unsets options mints no snapshot (it advances the head's batch sequence), the last
   * write wins, and it never conflicts.
   *
   * @throws NotFoundException if the scope's schema or table is not live; nothing staged
   * @throws InvalidArgumentException for an empty key, a null value, or the global {@code
   *     encrypted} key, which only the bootstrap writes; nothing staged
   */
  public void setOption(OptionScope scope, String key, String value) {
    ensureOpen();
    options.set(scope, key, value);
  }

  /**
   * Removes an option from a scope; an absent key is left absent.
   *
   * @throws NotFoundException if the scope's schema or table is not live; nothing staged
   * @throws InvalidArgumentException for an empty key or the global {@code encrypted} key; nothing
   *     staged
   */
  public void unsetOption(OptionScope scope, String key) {
    ensureOpen();
    options.unset(scope, key);
  }

  // ---- commit metadata -------------------------------------------------------------------------

  /**
   * Records who made this commit, why, and any extra information, in the snapshot it mints (each
   * may be null for none). A commit that mints no snapshot (an empty one, or one that only sets
   * options) has nowhere to keep them and drops them, as DuckLake does.
   */
  public void setCommitInfo(String author, String message, String extraInfo) {
    ensureOpen();
    this.author = author;
    this.commitMessage = message;
    this.commitExtraInfo = extraInfo;
  }

  // ---- inlined data ----------------------------------------------------------------------------

  /**
   * Inserts rows into a table's inlined data instead of a data file: one inline chunk under the
   * table's current schema version, its rows numbered densely from the table's next row id. Each
   * row lists one value per top-level column, in column order: {@code null} (where the column
   * allows nulls), a {@code Boolean} for boolean, a {@code Byte}, {@code Short}, {@code Integer} or
   * {@code Long} within range for the signed and unsigned integer types ({@code BigInteger} also
   * for uint64), a {@code Float} for float32, a {@code Double} for float64, a {@code String} for
   * varchar, a {@code byte[]} for blob, a {@code BigDecimal} for {@code decimal(p,s)} (at most s
   * decimal places and p - s integer digits), a {@code LocalDate} for date, a {@code LocalTime} of
   * whole microseconds for time, a {@code LocalDateTime} for timestamp, timestamp_s, timestamp_ms
   * and timestamp_ns (of whole microseconds, seconds, milliseconds or nanoseconds), an {@code
   * Instant} of whole microseconds for timestamptz, a {@code UUID} for uuid. Dates and timestamps
   * must lie in the years 1 to 9999 (UTC for an instant), a timestamp_ns between 1677-09-21 and
   * 2262-04-11 short of its greatest nanosecond count (DuckDB's infinity). A struct takes a {@code
   * Map<String, Object>} from member name (spelled exactly) to a value of the member's type, a
   * member left out being null; a list a {@code List<Object>} of values of the element's type, no
   * NaN among them; a map a {@code Map<?, ?>} of keys and values of the key's and value's types (no
   * null key, no NaN), kept in its iteration order. A struct's members, a list's element and a
   * map's key and value must be of the flat types above other than uuid; nested types inside nested
   * types cannot be inlined yet. Read back, {@link
   * dev.moraine.core.catalog.model.InlinedRows.Row#typedValues()} gives equal values (integers
   * below uint64 as {@code Long}, a decimal at the column's scale, a struct as an unmodifiable map
   * holding every member in column order, a list as an unmodifiable list, a map as an unmodifiable
   * map in entry order). The table's record count and next row id grow by the row count, its column
   * statistics take in the values, and the commit records {@code inlined_insert:<table>} and
   * advances {@code next_file_id} once per table, as stock DuckLake does. A concurrent insert into
   * the same table is a benign race: the re-run takes the next free row ids.
   *
   * @return the row id of the first row
   * @throws NotFoundException if the table is not live; nothing staged
   * @throws InvalidArgumentException if there are no rows, a row has the wrong number of values, a
   *     value does not fit its column's type (wrong Java type, out of range, or finer than the
   *     type's precision; a struct naming a member it lacks; a NaN list element; a null map key or
   *     a NaN map key or value), a NOT NULL column gets a null, a column's type cannot be inlined
   *     (only the types above can), the table's schema version already records a different inline
   *     schema, or this commit flushes the table; nothing staged
   * @throws CorruptionException if the table has no statistics or schema-version record; nothing
   *     staged
   */
  public long insertInlined(long tableId, List<List<Object>> rows) {
    ensureOpen();
    return inlined.insert(tableId, rows);
  }

  /**
   * Updates one row in place, as stock DuckLake's UPDATE does with data inlining on: the row's live
   * version ends at this commit's snapshot (an inlined row by a tombstone, a row of a live data
   * file by an inlined deletion naming the file and the row's position) and a new version with
   * {@code values} (one per top-level column, as {@link #insertInlined} takes them) begins there
   * under the same row id, in a one-row chunk under the table's current schema version. The table's
   * record count grows by one (stock DuckLake counts the new version as inserted and, as for any
   * inline delete, keeps the ended one counted); its next row id stays; its column statistics take
   * in the new values. The commit records {@code inlined_insert:<table>,inlined_delete:<table>} and
   * advances {@code next_file_id} once per table, as an inlined insert does. It races other commits
   * as an inlined insert and an inline delete of the table together: a concurrent inlined insert,
   * inline delete, update or flush of the same table is a conflict. A table whose rows were updated
   * cannot be flushed by {@link #flushInlined} yet (its row ids are no longer one dense range of
   * chunks).
   *
   * @throws NotFoundException if the table is not live, no inlined row or live data-file row of it
   *     has that id, or the row was already deleted or updated (by this commit or an earlier one);
   *     nothing staged
   * @throws InvalidArgumentException if {@code values} is null or does not fit the table's columns
   *     (as for {@link #insertInlined}), the row is inlined by this same commit or lies in a data
   *     file it registers, this commit flushes the table, or no chunk or file with a recorded row
   *     id range holds the id while the table has live files carrying their rows' ids inside them
   *     (merged or flushed files without {@code row_id_start}, which only the file itself could
   *     place the row in); nothing staged
   * @throws CorruptionException if the table has no statistics or schema-version record; nothing
   *     staged
   */
  public void updateRowInline(long tableId, long rowId, List<Object> values) {
    ensureOpen();
    inlined.updateRow(tableId, rowId, values);
  }

  /**
   * Deletes one row by its id, recorded inline as DuckLake does with data inlining on: an inlined
   * row gets a tombstone at this commit's snapshot; a row of a live data file gets an inlined
   * deletion naming the file and the row's position in it. The table's record count is left as it
   * was (as in DuckLake). The commit records {@code inlined_delete:<table>}; a concurrent inline
   * delete from the same table is a conflict (table grain: an inline delete names rows, not files).
   * Rows a delete file of the data file already removes are not checked.
   *
   * @throws NotFoundException if the table is not live, or no inlined row or data-file row of it
   *     has that id, or the row was already deleted (inline, by this commit or an earlier one);
   *     nothing staged
   * @throws InvalidArgumentException if the row is inlined by this same commit or lies in a data
   *     file this commit registers, this commit flushes the table, or no chunk or file with a
   *     recorded row id range holds the id while the table has live files carrying their rows' ids
   *     inside them (merged or flushed files without {@code row_id_start}: delete such a row with a
   *     delete file); nothing staged
   */
  public void deleteRowInline(long tableId, long rowId) {
    ensureOpen();
    inlined.deleteRow(tableId, rowId);
  }

  /**
   * Flushes a table's inlined data into files the caller has already written, as {@code
   * ducklake_flush_inlined_data} does ({@link InlineFlush} says what each file holds): one data
   * file for the rows of each schema version inlined before the table was partitioned (no partition
   * values), and one for each partition of the rows inlined since (the partition values of its
   * rows). Each data file keeps its rows' ids, begins at the snapshot of its first inlined row,
   * ends its inlining span ({@code partial_max}) at its last, and adds only its bytes to the
   * table's statistics; the delete file of its rows deleted while inlined targets it and begins at
   * the first such deletion; each data file with rows deleted inline gets a delete file beginning
   * at the first of those deletions, also a data file expired since (as stock DuckLake writes it:
   * such a delete file stays registered, and applies only at the snapshots where its data file was
   * live, so those keep the rows deleted). The inline chunks, tombstones and inline deletions are
   * removed. The commit records {@code inline_flush:<table>} (and {@code
   * deleted_from_table:<table>} when it writes delete files for data files), and takes a file id
   * for each file. A concurrent insert into the table is a benign race (the re-run flushes what is
   * inlined then); a concurrent inline delete or flush of it is a conflict.
   *
   * @throws NotFoundException if the table is not live, or a statistics entry of the data file
   *     names a column that is not; nothing staged
   * @throws InvalidArgumentException if the table has nothing inlined and no inline deletions; a
   *     row has two inlined versions (an inline update); no data file is given though rows are
   *     inlined (or one is though none are); the parts do not hold every inlined row exactly once,
   *     a part's rows are under more than one schema version, or its file's record count is not its
   *     number of rows; a part of rows inlined while the table was partitioned does not carry the
   *     partition values of each of its rows (checked from the rows' values: by their text as stock
   *     records it where known, else by all rows holding the same value; a NULL is refused, the
   *     lake cannot record one), or a part of rows inlined before carries any; a part's row delete
   *     file is missing though some of its rows were deleted while inlined (or given though none
   *     were); the delete files for data files do not name exactly the data files with inline
   *     deletions, or such a file already has a live delete file; a count, size or path is invalid;
   *     or this commit also inlines into or deletes inline from the table; nothing staged
   * @throws CorruptionException if the table has no statistics record; nothing staged
   */
  public FlushedInline flushInlined(long tableId, InlineFlush flush) {
    ensureOpen();
    return inlineFlush.flush(tableId, flush);
  }

  // ---- equality indexes ------------------------------------------------------------------------

  /**
   * Creates an equality index over the top-level {@code columnIds} of a table (in that order,
   * ascending, NULLS LAST), UNIQUE when {@code unique}, as the Rust implementation's {@code
   * create_index} does (RFC 0002 §10.3): the definition takes its id from {@code next_catalog_id}
   * and is ready at once, the commit records an alteration of the table ({@code altered_table}, a
   * {@code schema_versions} row), and every row of the table live at the premise gets its entry in
   * the same commit: inlined rows from their chunks, data-file rows through the catalog's {@link
   * FileIndexValues}. Rows the commit changes after this call keep the index's entries as for any
   * index. A UNIQUE index over rows that hold one value twice (without a NULL) makes the commit
   * throw {@link DuplicateIndexValueException} when the closure has returned.
   *
   * @return the new index's id
   * @throws NotFoundException if the table is not live, or a column id is not a live top-level
   *     column of it; nothing staged
   * @throws AlreadyExistsException if the table has a live index of that name; nothing staged
   * @throws InvalidArgumentException if the name is empty, there are no columns, a column's type
   *     has no index form (decimals, times, nested types, ...), this commit already changed the
   *     table's rows, the table has rows in data files and the catalog has no {@link
   *     FileIndexValues}, or the entries would pass a commit's limits; nothing staged
   */
  public long createIndex(long tableId, String name, List<Long> columnIds, boolean unique) {
    ensureOpen();
    return indexVerbs.create(tableId, name, columnIds, unique);
  }

  /**
   * Drops the equality index {@code name} of a table, as the Rust implementation's {@code
   * drop_index} does: the definition ends into history and the commit records an alteration of the
   * table; the entries stay until the Rust implementation's maintenance sweep reclaims those of
   * indexes no live definition names.
   *
   * @throws NotFoundException if the table is not live or has no live index of that name; nothing
   *     staged
   */
  public void dropIndex(long tableId, String name) {
    ensureOpen();
    indexVerbs.drop(tableId, name);
  }

  // ---- what staging reads ----------------------------------------------------------------------

  /**
   * What this run of the closure produced, for staging. Seals the handle: a verb called after the
   * closure returned (a handle kept past its commit) is refused instead of being silently lost.
   */
  Draft draft() {
    sealed = true;
    inlined.checkVersions();
    inlined.registerReshapedTables();
    dev.moraine.core.kv.WriteBatch indexEntries = state.indexes.resolve();
    return new Draft(
        staged.changes(),
        List.copyOf(state.operations),
        state.changes.build(),
        List.copyOf(state.schemaChangedIds),
        List.copyOf(state.deletedDataFileIds),
        state.statsChanged || !state.operations.isEmpty(),
        state.nextCatalogId,
        state.nextFileId,
        Optional.ofNullable(author),
        Optional.ofNullable(commitMessage),
        Optional.ofNullable(commitExtraInfo),
        state.inline,
        indexEntries,
        state.compaction,
        MaintenanceWrites.NONE);
  }

  /** Ends the run without a draft: verbs are refused from now on. */
  void seal() {
    sealed = true;
  }

  /** The premise's snapshot record. */
  SnapshotValue premiseRecord() {
    return state.premiseRecord;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private void ensureOpen() {
    if (sealed) {
      throw new InvalidArgumentException(
          "this transaction handle belongs to a commit whose closure has returned");
    }
  }
}
