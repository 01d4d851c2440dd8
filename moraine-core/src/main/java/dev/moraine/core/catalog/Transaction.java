package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

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
 * <p>A handle belongs to one run of the closure and to the thread running it; do not keep it past
 * the closure's return.
 */
public final class Transaction {
  private final StagedEntities staged;
  private final SnapshotValue premiseRecord;
  private final long newSnapshotId;
  private long nextCatalogId;
  private long nextFileId;
  private final List<DuckLakeOperation> operations = new ArrayList<>();
  private final ChangeSet.Builder changes = ChangeSet.builder();
  private final Set<Long> schemaChangedIds = new TreeSet<>(Long::compareUnsigned);
  private final Set<Long> deletedDataFileIds = new TreeSet<>(Long::compareUnsigned);
  private boolean statsChanged;
  private boolean sealed;
  private String author;
  private String commitMessage;
  private String commitExtraInfo;

  Transaction(CatalogSnapshot premise, SnapshotValue premiseRecord) {
    this.staged = new StagedEntities(premise);
    this.premiseRecord = premiseRecord;
    this.newSnapshotId = premiseRecord.getSnapshotId() + 1;
    this.nextCatalogId = premiseRecord.getNextCatalogId();
    this.nextFileId = premiseRecord.getNextFileId();
  }

  // ---- reads -----------------------------------------------------------------------------------

  /** The catalog as the commit's premise left it (without this closure's changes). */
  public CatalogSnapshot premise() {
    return staged.premise();
  }

  /** The snapshot id this commit will mint if it lands as a snapshot-minting commit. */
  public long newSnapshotId() {
    return newSnapshotId;
  }

  /** The schema with this id, as this closure sees it. */
  public Optional<SchemaInfo> schema(long schemaId) {
    return staged.get(new EntityKey.Schema(schemaId), SchemaValue.class).map(Records::schema);
  }

  /** The schema with this name (case-insensitive), as this closure sees it. */
  public Optional<SchemaInfo> schemaByName(String name) {
    Names.nonEmpty("schema", name);
    return schemas().stream()
        .filter(s -> Names.same(s.getSchemaName(), name))
        .findFirst()
        .map(Records::schema);
  }

  /** The table with this id, as this closure sees it. */
  public Optional<TableInfo> table(long tableId) {
    return liveTable(tableId).map(Records::table);
  }

  /** The table with this name (case-insensitive) in this schema, as this closure sees it. */
  public Optional<TableInfo> tableByName(long schemaId, String name) {
    Names.nonEmpty("table", name);
    return tables().stream()
        .filter(t -> t.getSchemaId() == schemaId && Names.same(t.getTableName(), name))
        .findFirst()
        .map(Records::table);
  }

  /** The live columns of a table, nested fields included, ordered by column order. */
  public List<ColumnInfo> columns(long tableId) {
    return columnRecords(tableId).stream()
        .sorted(
            (a, b) ->
                a.getColumnOrder() != b.getColumnOrder()
                    ? Long.compareUnsigned(a.getColumnOrder(), b.getColumnOrder())
                    : Long.compareUnsigned(a.getColumnId(), b.getColumnId()))
        .map(c -> Records.column(c, newSnapshotId))
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
    Names.pathSafe("schema", name);
    if (schemaByName(name).isPresent()) {
      throw new AlreadyExistsException("schema '" + name + "' already exists");
    }
    long id = nextCatalogId++;
    staged.put(
        new EntityKey.Schema(id),
        SchemaValue.newBuilder()
            .setSchemaId(id)
            .setSchemaUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(newSnapshotId)
            .setSchemaName(name)
            .setPath(name + "/")
            .setPathIsRelative(true)
            .build());
    record(DuckLakeOperation.CREATE_SCHEMA, new ChangeEntry.BySchemaName(name));
    return id;
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
    if (schemaId == 0) {
      throw new InvalidArgumentException("the main schema cannot be dropped");
    }
    if (schema(schemaId).isEmpty()) {
      throw notFound("schema " + Long.toUnsignedString(schemaId));
    }
    boolean occupied =
        tables().stream().anyMatch(t -> t.getSchemaId() == schemaId)
            || views().stream().anyMatch(v -> v.getSchemaId() == schemaId)
            || !premise().macrosIn(schemaId).isEmpty();
    if (occupied) {
      throw new InvalidArgumentException(
          "schema " + Long.toUnsignedString(schemaId) + " still holds tables, views or macros");
    }
    staged.delete(new EntityKey.Schema(schemaId));
    staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, schemaId));
    record(
        DuckLakeOperation.DROP_SCHEMA, new ChangeEntry.ById(ChangeKind.DROPPED_SCHEMA, schemaId));
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
    SchemaInfo schema = schema(schemaId).orElseThrow(() -> notFound("schema " + schemaId));
    Names.pathSafe("table", name);
    relationNameFree(schemaId, name, null);
    if (columns == null || columns.isEmpty()) {
      throw new InvalidArgumentException("table '" + name + "' needs at least one column");
    }
    ColumnTrees.validate(columns, "table '" + name + "'");
    long id = nextCatalogId++;
    staged.put(
        new EntityKey.Table(id),
        TableValue.newBuilder()
            .setTableId(id)
            .setTableUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(newSnapshotId)
            .setSchemaId(schemaId)
            .setTableName(name)
            .setPath(name + "/")
            .setPathIsRelative(true)
            .setNextColumnId(ColumnTrees.nodeCount(columns) + 1)
            .build());
    long[] counters = {1, 1}; // next column id, next column order
    for (ColumnDef def : columns) {
      stageColumnTree(id, def, null, counters);
    }
    staged.put(new EntityKey.TableStats(id), TableStatsValue.newBuilder().setTableId(id).build());
    record(
        DuckLakeOperation.CREATE_TABLE,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_TABLE, schema.name(), name));
    schemaChangedIds.add(id);
    return id;
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
    Names.pathSafe("table", newName);
    TableValue table = requireTable(tableId);
    if (table.getTableName().equals(newName)) {
      throw new InvalidArgumentException("table '" + newName + "' already has that name");
    }
    relationNameFree(table.getSchemaId(), newName, tableId);
    staged.put(
        new EntityKey.Table(tableId),
        table.toBuilder().setTableName(newName).setBeginSnapshot(newSnapshotId).build());
    renamed(table.getSchemaId(), newName, tableId);
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
    requireTable(tableId);
    staged.delete(new EntityKey.Table(tableId));
    for (ColumnValue c : columnRecords(tableId)) {
      staged.delete(new EntityKey.Column(tableId, c.getColumnId()));
    }
    for (DataFileValue f : dataFileRecords(tableId)) {
      staged.delete(new EntityKey.DataFile(tableId, f.getDataFileId()));
    }
    for (DeleteFileValue f :
        staged.list(
            EntityKind.DELETE_FILE,
            tableId,
            DeleteFileValue.class,
            v -> new EntityKey.DeleteFile(tableId, v.getDeleteFileId()))) {
      staged.delete(new EntityKey.DeleteFile(tableId, f.getDeleteFileId()));
    }
    for (PartitionValue p : partitionRecords(tableId)) {
      staged.delete(new EntityKey.Partition(tableId, p.getPartitionId()));
    }
    for (SortValue s :
        staged.list(
            EntityKind.SORT,
            tableId,
            SortValue.class,
            v -> new EntityKey.Sort(tableId, v.getSortId()))) {
      staged.delete(new EntityKey.Sort(tableId, s.getSortId()));
    }
    for (IndexValue i :
        staged.list(
            EntityKind.INDEX_DEFINITION,
            tableId,
            IndexValue.class,
            v -> new EntityKey.IndexDefinition(tableId, v.getIndexId()))) {
      staged.delete(new EntityKey.IndexDefinition(tableId, i.getIndexId()));
    }
    // The table's statistics records stay: stock DuckLake keeps a dropped table's
    // ducklake_table_stats and ducklake_table_column_stats rows (the Rust crate deletes them; RFC
    // 0004 lists the case).
    staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, tableId));
    record(DuckLakeOperation.DROP_TABLE, new ChangeEntry.ById(ChangeKind.DROPPED_TABLE, tableId));
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
    if (def == null) {
      throw new InvalidArgumentException("column definition must not be null");
    }
    ColumnTrees.validate(List.of(def), "the new column");
    TableValue table = requireTable(tableId);
    List<ColumnValue> live = columnRecords(tableId);
    siblingNameFree(live, null, def.name(), null);
    long maxId = 0;
    long maxOrder = 0;
    for (ColumnValue c : live) {
      maxId = Math.max(maxId, c.getColumnId());
      maxOrder = Math.max(maxOrder, c.getColumnOrder());
    }
    long[] counters = {Math.max(table.getNextColumnId(), maxId + 1), maxOrder + 1};
    long columnId = stageColumnTree(tableId, def, null, counters);
    // Only next_column_id changes: an in-place overwrite (RFC 0002 §12.1). Stock DuckLake keeps
    // the table's row as it was when a column is added, so its begin snapshot stays.
    staged.put(
        new EntityKey.Table(tableId), table.toBuilder().setNextColumnId(counters[0]).build());
    altered(DuckLakeOperation.ADD_COLUMN, tableId);
    return columnId;
  }

  /**
   * Drops a column and every field beneath it, with their table column statistics.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   * @throws InvalidArgumentException if it is the table's last top-level column; nothing staged
   */
  public void dropColumn(long tableId, long columnId) {
    ensureOpen();
    requireTable(tableId);
    List<ColumnValue> live = columnRecords(tableId);
    ColumnValue column = requireColumn(live, tableId, columnId);
    if (!column.hasParentColumn() && live.stream().filter(c -> !c.hasParentColumn()).count() <= 1) {
      throw new InvalidArgumentException(
          "column "
              + Long.toUnsignedString(columnId)
              + " is the last column of table "
              + Long.toUnsignedString(tableId));
    }
    List<Long> doomed = new ArrayList<>(List.of(columnId));
    for (int at = 0; at < doomed.size(); at++) {
      long parent = doomed.get(at);
      for (ColumnValue c : live) {
        if (c.hasParentColumn() && c.getParentColumn() == parent) {
          doomed.add(c.getColumnId());
        }
      }
    }
    Set<Long> withStats = new HashSet<>();
    for (TableColumnStatsValue s : tableColumnStatsRecords(tableId)) {
      withStats.add(s.getColumnId());
    }
    for (long id : doomed) {
      staged.delete(new EntityKey.Column(tableId, id));
      if (withStats.contains(id)) {
        staged.delete(new EntityKey.TableColumnStats(tableId, id));
      }
    }
    altered(DuckLakeOperation.DROP_COLUMN, tableId);
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
    Names.nonEmpty("column", newName);
    requireTable(tableId);
    List<ColumnValue> live = columnRecords(tableId);
    ColumnValue column = requireColumn(live, tableId, columnId);
    if (column.getColumnName().equals(newName)) {
      throw new InvalidArgumentException("column '" + newName + "' already has that name");
    }
    siblingNameFree(
        live, column.hasParentColumn() ? column.getParentColumn() : null, newName, columnId);
    staged.put(
        new EntityKey.Column(tableId, columnId),
        column.toBuilder().setColumnName(newName).setBeginSnapshot(newSnapshotId).build());
    altered(DuckLakeOperation.RENAME_COLUMN, tableId);
  }

  // ---- data files ------------------------------------------------------------------------------

  /**
   * Registers a data file. Its id comes from {@code next_file_id}; its rows get the ids {@code
   * next_row_id ..< next_row_id + recordCount} of the table, which advance by {@code recordCount};
   * the table's record count and size grow by the file's. Its column statistics are stored as given
   * (the table's column statistics are not changed).
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
    if (file == null) {
      throw new InvalidArgumentException("data file must not be null");
    }
    requireTable(tableId);
    if (file.path() == null || file.path().isEmpty()) {
      throw new InvalidArgumentException("data file path must not be empty");
    }
    if (file.fileFormat() == null || file.fileFormat().isEmpty()) {
      throw new InvalidArgumentException("data file format must not be empty");
    }
    nonNegative("record count", file.recordCount());
    nonNegative("file size", file.fileSizeBytes());
    nonNegative("footer size", file.footerSize());
    List<ColumnValue> live = columnRecords(tableId);
    Set<Long> statColumns = new HashSet<>();
    for (NewFileColumnStats s : file.columnStats()) {
      if (s == null) {
        throw new InvalidArgumentException("a column statistics entry is null");
      }
      requireColumn(live, tableId, s.columnId());
      if (!statColumns.add(s.columnId())) {
        throw new InvalidArgumentException(
            "column " + Long.toUnsignedString(s.columnId()) + " has two statistics entries");
      }
      nonNegative("column size", s.columnSizeBytes());
      nonNegative("value count", s.valueCount());
      nonNegative("null count", s.nullCount());
    }
    OptionalPartition partition = partitionFor(tableId, file.partitionValues());
    TableStatsValue stats =
        staged
            .get(new EntityKey.TableStats(tableId), TableStatsValue.class)
            .orElseThrow(
                () ->
                    new CorruptionException(
                        "table " + Long.toUnsignedString(tableId) + " has no statistics record"));
    long rowIdStart = stats.getNextRowId();
    if (Long.compareUnsigned(rowIdStart + file.recordCount(), rowIdStart) < 0) {
      throw new InvalidArgumentException(
          "the file's rows would run past the largest row id of table "
              + Long.toUnsignedString(tableId));
    }
    long fileId = nextFileId++;
    staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setNextRowId(rowIdStart + file.recordCount())
            .setRecordCount(stats.getRecordCount() + file.recordCount())
            .setFileSizeBytes(stats.getFileSizeBytes() + file.fileSizeBytes())
            .build());
    DataFileValue.Builder value =
        DataFileValue.newBuilder()
            .setDataFileId(fileId)
            .setTableId(tableId)
            .setBeginSnapshot(newSnapshotId)
            .setPath(file.path())
            .setPathIsRelative(file.pathIsRelative())
            .setFileFormat(file.fileFormat())
            .setRecordCount(file.recordCount())
            .setFileSizeBytes(file.fileSizeBytes())
            .setFooterSize(file.footerSize())
            .setRowIdStart(rowIdStart);
    if (partition.id != null) {
      value.setPartitionId(partition.id);
    }
    file.encryptionKey().ifPresent(value::setEncryptionKey);
    for (int i = 0; i < file.partitionValues().size(); i++) {
      value.addPartitionValues(
          FilePartitionValue.newBuilder()
              .setPartitionKeyIndex(i)
              .setPartitionValue(file.partitionValues().get(i)));
    }
    staged.put(new EntityKey.DataFile(tableId, fileId), value.build());
    for (NewFileColumnStats s : file.columnStats()) {
      FileColumnStatsValue.Builder b =
          FileColumnStatsValue.newBuilder()
              .setDataFileId(fileId)
              .setTableId(tableId)
              .setColumnId(s.columnId())
              .setColumnSizeBytes(s.columnSizeBytes())
              .setValueCount(s.valueCount())
              .setNullCount(s.nullCount());
      s.minValue().ifPresent(b::setMinValue);
      s.maxValue().ifPresent(b::setMaxValue);
      s.containsNan().ifPresent(b::setContainsNan);
      s.extraStats().ifPresent(b::setExtraStats);
      staged.put(new EntityKey.FileColumnStats(tableId, fileId, s.columnId()), b.build());
    }
    record(
        DuckLakeOperation.INSERT_FILE,
        new ChangeEntry.ById(ChangeKind.INSERTED_INTO_TABLE, tableId));
    return fileId;
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
    TableValue table = requireTable(tableId);
    if (schema(schemaId).isEmpty()) {
      throw notFound("schema " + Long.toUnsignedString(schemaId));
    }
    if (table.getSchemaId() == schemaId) {
      throw new InvalidArgumentException("the table is already in that schema");
    }
    relationNameFree(schemaId, table.getTableName(), null);
    staged.put(
        new EntityKey.Table(tableId),
        table.toBuilder().setSchemaId(schemaId).setBeginSnapshot(newSnapshotId).build());
    renamed(schemaId, table.getTableName(), tableId);
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
    requireTable(tableId);
    List<ColumnValue> live = columnRecords(tableId);
    ColumnValue column = requireColumn(live, tableId, columnId);
    ColumnDef probe = ColumnDef.of(column.getColumnName(), type);
    ColumnTrees.validate(List.of(probe), "the column");
    boolean hasFields =
        live.stream().anyMatch(c -> c.hasParentColumn() && c.getParentColumn() == columnId);
    if (hasFields || ColumnTrees.isNestedType(column.getColumnType())) {
      throw new InvalidArgumentException("the type of a nested column cannot be changed");
    }
    alterColumn(column, column.toBuilder().setColumnType(ColumnTrees.storedType(probe)).build());
    altered(DuckLakeOperation.CHANGE_COLUMN_TYPE, tableId);
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
    requireTable(tableId);
    ColumnValue column = requireColumn(columnRecords(tableId), tableId, columnId);
    ColumnValue.Builder next = column.toBuilder();
    // Stock DuckLake writes a dropped default as the literal text NULL, not as an absent value.
    next.setDefaultValue(value == null ? "NULL" : value);
    alterColumn(column, next.build());
    altered(
        value == null ? DuckLakeOperation.DROP_DEFAULT : DuckLakeOperation.SET_DEFAULT, tableId);
  }

  /**
   * Allows or refuses nulls in a column ({@code SET NOT NULL} is {@code nullsAllowed = false}).
   * Whether the existing data has nulls is the caller's to know.
   *
   * @throws NotFoundException if the table or column is not live; nothing staged
   */
  public void setColumnNullable(long tableId, long columnId, boolean nullsAllowed) {
    ensureOpen();
    requireTable(tableId);
    ColumnValue column = requireColumn(columnRecords(tableId), tableId, columnId);
    alterColumn(column, column.toBuilder().setNullsAllowed(nullsAllowed).build());
    altered(
        nullsAllowed ? DuckLakeOperation.DROP_NOT_NULL : DuckLakeOperation.SET_NOT_NULL, tableId);
  }

  private void alterColumn(ColumnValue column, ColumnValue next) {
    staged.put(
        new EntityKey.Column(column.getTableId(), column.getColumnId()),
        next.toBuilder().setBeginSnapshot(newSnapshotId).build());
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
    SchemaInfo schema =
        schema(schemaId).orElseThrow(() -> notFound("schema " + Long.toUnsignedString(schemaId)));
    Names.pathSafe("view", name);
    Names.nonEmpty("dialect", dialect);
    Names.nonEmpty("view SQL", sql);
    relationNameFree(schemaId, name, null);
    long id = nextCatalogId++;
    staged.put(
        new EntityKey.View(id),
        ViewValue.newBuilder()
            .setViewId(id)
            .setViewUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(newSnapshotId)
            .setSchemaId(schemaId)
            .setViewName(name)
            .setDialect(dialect)
            .setSql(sql)
            // Stock DuckLake writes an empty alias list as '', not NULL.
            .setColumnAliases("")
            .build());
    record(
        DuckLakeOperation.CREATE_VIEW,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_VIEW, schema.name(), name));
    // No ducklake_schema_versions row: stock DuckLake writes those for tables only.
    return id;
  }

  /**
   * Replaces a view's definition.
   *
   * @throws NotFoundException if the view is not live; nothing staged
   * @throws InvalidArgumentException for an empty dialect or SQL text; nothing staged
   */
  public void alterView(long viewId, String dialect, String sql) {
    ensureOpen();
    Names.nonEmpty("dialect", dialect);
    Names.nonEmpty("view SQL", sql);
    ViewValue view = requireView(viewId);
    staged.put(
        new EntityKey.View(viewId),
        view.toBuilder().setDialect(dialect).setSql(sql).setBeginSnapshot(newSnapshotId).build());
    operations.add(DuckLakeOperation.COMMENT_ON_VIEW);
    if (!provisional(viewId)) {
      changes.add(new ChangeEntry.ById(ChangeKind.ALTERED_VIEW, viewId));
    }
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
    Names.pathSafe("view", newName);
    ViewValue view = requireView(viewId);
    relationNameFree(view.getSchemaId(), newName, null);
    staged.put(
        new EntityKey.View(viewId),
        view.toBuilder().setViewName(newName).setBeginSnapshot(newSnapshotId).build());
    SchemaInfo schema = schema(view.getSchemaId()).orElseThrow();
    record(
        DuckLakeOperation.RENAME_VIEW,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_VIEW, schema.name(), newName));
  }

  /**
   * Drops a view.
   *
   * @throws NotFoundException if the view is not live; nothing staged
   */
  public void dropView(long viewId) {
    ensureOpen();
    requireView(viewId);
    staged.delete(new EntityKey.View(viewId));
    record(DuckLakeOperation.DROP_VIEW, new ChangeEntry.ById(ChangeKind.DROPPED_VIEW, viewId));
  }

  private ViewValue requireView(long viewId) {
    return staged
        .get(new EntityKey.View(viewId), ViewValue.class)
        .orElseThrow(() -> notFound("view " + Long.toUnsignedString(viewId)));
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
    requireTable(tableId);
    nonNegative("record count", recordCount);
    nonNegative("file size", fileSizeBytes);
    TableStatsValue stats = requireStats(tableId);
    staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder().setRecordCount(recordCount).setFileSizeBytes(fileSizeBytes).build());
    statsChanged = true;
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
    requireTable(tableId);
    requireColumn(columnRecords(tableId), tableId, columnId);
    if (containsNull == null
        || containsNan == null
        || minValue == null
        || maxValue == null
        || extraStats == null) {
      throw new InvalidArgumentException("column statistics fields must not be null");
    }
    TableColumnStatsValue.Builder b =
        TableColumnStatsValue.newBuilder().setTableId(tableId).setColumnId(columnId);
    containsNull.ifPresent(b::setContainsNull);
    containsNan.ifPresent(b::setContainsNan);
    minValue.ifPresent(b::setMinValue);
    maxValue.ifPresent(b::setMaxValue);
    extraStats.ifPresent(b::setExtraStats);
    staged.put(new EntityKey.TableColumnStats(tableId, columnId), b.build());
    statsChanged = true;
  }

  private TableStatsValue requireStats(long tableId) {
    return staged
        .get(new EntityKey.TableStats(tableId), TableStatsValue.class)
        .orElseThrow(
            () ->
                new CorruptionException(
                    "table " + Long.toUnsignedString(tableId) + " has no statistics record"));
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
    if (file == null) {
      throw new InvalidArgumentException("delete file must not be null");
    }
    requireTable(tableId);
    DataFileValue target =
        staged
            .get(new EntityKey.DataFile(tableId, file.dataFileId()), DataFileValue.class)
            .orElseThrow(
                () ->
                    notFound(
                        "data file "
                            + Long.toUnsignedString(file.dataFileId())
                            + " of table "
                            + Long.toUnsignedString(tableId)));
    Names.nonEmpty("delete file path", file.path());
    Names.nonEmpty("delete file format", file.format());
    nonNegative("delete count", file.deleteCount());
    nonNegative("file size", file.fileSizeBytes());
    nonNegative("footer size", file.footerSize());
    if (Long.compareUnsigned(file.deleteCount(), target.getRecordCount()) > 0) {
      throw new InvalidArgumentException(
          "a delete file of "
              + file.deleteCount()
              + " rows for a data file of "
              + target.getRecordCount());
    }
    if (deleteFileRecords(tableId).stream().anyMatch(d -> d.getDataFileId() == file.dataFileId())) {
      throw new InvalidArgumentException(
          "data file "
              + Long.toUnsignedString(file.dataFileId())
              + " already has a live delete file; expire it first");
    }
    long id = nextFileId++;
    DeleteFileValue.Builder value =
        DeleteFileValue.newBuilder()
            .setDeleteFileId(id)
            .setTableId(tableId)
            .setBeginSnapshot(newSnapshotId)
            .setDataFileId(file.dataFileId())
            .setPath(file.path())
            .setPathIsRelative(file.pathIsRelative())
            .setFormat(file.format())
            .setDeleteCount(file.deleteCount())
            .setFileSizeBytes(file.fileSizeBytes())
            .setFooterSize(file.footerSize());
    file.encryptionKey().ifPresent(value::setEncryptionKey);
    staged.put(new EntityKey.DeleteFile(tableId, id), value.build());
    deletedDataFileIds.add(file.dataFileId());
    record(
        DuckLakeOperation.DELETE_FILE,
        new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, tableId));
    return id;
  }

  /**
   * Expires a data file: ends it (and any delete file targeting it) and takes its rows and bytes
   * off the table's statistics; the next row id is kept. Recorded as {@code merge_adjacent}, the
   * kind whose conflict profile an expiry has.
   *
   * @throws NotFoundException if the data file is not live in the table; nothing staged
   */
  public void expireDataFile(long tableId, long dataFileId) {
    ensureOpen();
    requireTable(tableId);
    DataFileValue file =
        staged
            .get(new EntityKey.DataFile(tableId, dataFileId), DataFileValue.class)
            .orElseThrow(
                () ->
                    notFound(
                        "data file "
                            + Long.toUnsignedString(dataFileId)
                            + " of table "
                            + Long.toUnsignedString(tableId)));
    for (DeleteFileValue d : deleteFileRecords(tableId)) {
      if (d.getDataFileId() == dataFileId) {
        staged.delete(new EntityKey.DeleteFile(tableId, d.getDeleteFileId()));
      }
    }
    staged.delete(new EntityKey.DataFile(tableId, dataFileId));
    TableStatsValue stats = requireStats(tableId);
    staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setRecordCount(saturatingSub(stats.getRecordCount(), file.getRecordCount()))
            .setFileSizeBytes(saturatingSub(stats.getFileSizeBytes(), file.getFileSizeBytes()))
            .build());
    record(
        DuckLakeOperation.MERGE_ADJACENT_FILES,
        new ChangeEntry.ById(ChangeKind.MERGE_ADJACENT, tableId));
  }

  /**
   * Expires a delete file. Recorded as {@code rewrite_delete}.
   *
   * @throws NotFoundException if the delete file is not live in the table; nothing staged
   */
  public void expireDeleteFile(long tableId, long deleteFileId) {
    ensureOpen();
    requireTable(tableId);
    if (staged
        .get(new EntityKey.DeleteFile(tableId, deleteFileId), DeleteFileValue.class)
        .isEmpty()) {
      throw notFound(
          "delete file "
              + Long.toUnsignedString(deleteFileId)
              + " of table "
              + Long.toUnsignedString(tableId));
    }
    staged.delete(new EntityKey.DeleteFile(tableId, deleteFileId));
    record(
        DuckLakeOperation.REWRITE_DELETES,
        new ChangeEntry.ById(ChangeKind.REWRITE_DELETE, tableId));
  }

  private List<DeleteFileValue> deleteFileRecords(long tableId) {
    return staged.list(
        EntityKind.DELETE_FILE,
        tableId,
        DeleteFileValue.class,
        v -> new EntityKey.DeleteFile(tableId, v.getDeleteFileId()));
  }

  private static long saturatingSub(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? 0 : a - b;
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
    EntityKey.OptionScope entity = optionScope(scope, key);
    if (value == null) {
      throw new InvalidArgumentException("option value must not be null (unset it instead)");
    }
    OptionScopeValue current =
        staged.get(entity, OptionScopeValue.class).orElse(OptionScopeValue.getDefaultInstance());
    staged.put(entity, current.toBuilder().putOptions(key, value).build());
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
    EntityKey.OptionScope entity = optionScope(scope, key);
    Optional<OptionScopeValue> current = staged.get(entity, OptionScopeValue.class);
    if (current.isEmpty() || !current.get().containsOptions(key)) {
      return;
    }
    OptionScopeValue left = current.get().toBuilder().removeOptions(key).build();
    if (left.getOptionsCount() == 0) {
      staged.delete(entity);
    } else {
      staged.put(entity, left);
    }
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

  // ---- what staging reads ----------------------------------------------------------------------

  /**
   * What this run of the closure produced, for staging. Seals the handle: a verb called after the
   * closure returned (a handle kept past its commit) is refused instead of being silently lost.
   */
  Draft draft() {
    sealed = true;
    return new Draft(
        staged.changes(),
        List.copyOf(operations),
        changes.build(),
        List.copyOf(schemaChangedIds),
        List.copyOf(deletedDataFileIds),
        statsChanged || !operations.isEmpty(),
        nextCatalogId,
        nextFileId,
        Optional.ofNullable(author),
        Optional.ofNullable(commitMessage),
        Optional.ofNullable(commitExtraInfo));
  }

  /** The premise's snapshot record. */
  SnapshotValue premiseRecord() {
    return premiseRecord;
  }

  /**
   * One run's products: the touched entities, the DuckLake operations (which decide whether {@code
   * schema_version} grows), the change set for {@code changes_made}, the tables and views whose
   * shape changed, the data files its delete files target, whether it mints a snapshot (any verb
   * but an option change does), and the advanced counters.
   */
  record Draft(
      List<StagedEntities.Change> entities,
      List<DuckLakeOperation> operations,
      ChangeSet changes,
      List<Long> schemaChangedIds,
      List<Long> deletedDataFileIds,
      boolean mintsSnapshot,
      long nextCatalogId,
      long nextFileId,
      Optional<String> author,
      Optional<String> commitMessage,
      Optional<String> commitExtraInfo) {}

  // ---- helpers ---------------------------------------------------------------------------------

  private void record(DuckLakeOperation op, ChangeEntry entry) {
    operations.add(op);
    changes.add(entry);
  }

  /**
   * A table alteration: {@code altered_table} and a {@code schema_versions} record. A table this
   * commit created gets no {@code altered_table} entry: DuckLake reports it as created only.
   */
  private void altered(DuckLakeOperation op, long tableId) {
    operations.add(op);
    // Also for a table created in this commit: stock DuckLake 1.5.5 writes
    // created_table:"s"."t",altered_table:<its new id> for CREATE TABLE then ALTER TABLE in one
    // transaction. The id is provisional; conflict checks must not match it against a concurrent
    // commit's entries.
    changes.add(new ChangeEntry.ById(ChangeKind.ALTERED_TABLE, tableId));
    schemaChangedIds.add(tableId);
  }

  /**
   * A table that keeps its id under a new name or in a new schema. Stock DuckLake records it as the
   * creation of the table under its new qualified name (the Rust implementation writes {@code
   * altered_table}; we follow DuckLake, whose text DuckLake re-reads).
   */
  private void renamed(long schemaId, String name, long tableId) {
    SchemaInfo schema = schema(schemaId).orElseThrow();
    record(
        DuckLakeOperation.RENAME_TABLE,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_TABLE, schema.name(), name));
    schemaChangedIds.add(tableId);
  }

  /** Whether this commit numbered the id itself (it is at or above the premise's counter). */
  private boolean provisional(long id) {
    return Long.compareUnsigned(id, premiseRecord.getNextCatalogId()) >= 0;
  }

  private List<SchemaValue> schemas() {
    return staged.list(
        EntityKind.SCHEMA, null, SchemaValue.class, v -> new EntityKey.Schema(v.getSchemaId()));
  }

  private List<TableValue> tables() {
    return staged.list(
        EntityKind.TABLE, null, TableValue.class, v -> new EntityKey.Table(v.getTableId()));
  }

  private List<ViewValue> views() {
    return staged.list(
        EntityKind.VIEW, null, ViewValue.class, v -> new EntityKey.View(v.getViewId()));
  }

  private Optional<TableValue> liveTable(long tableId) {
    return staged.get(new EntityKey.Table(tableId), TableValue.class);
  }

  private TableValue requireTable(long tableId) {
    return liveTable(tableId)
        .orElseThrow(() -> notFound("table " + Long.toUnsignedString(tableId)));
  }

  private List<ColumnValue> columnRecords(long tableId) {
    return staged.list(
        EntityKind.COLUMN,
        tableId,
        ColumnValue.class,
        v -> new EntityKey.Column(tableId, v.getColumnId()));
  }

  private List<DataFileValue> dataFileRecords(long tableId) {
    return staged.list(
        EntityKind.DATA_FILE,
        tableId,
        DataFileValue.class,
        v -> new EntityKey.DataFile(tableId, v.getDataFileId()));
  }

  private List<PartitionValue> partitionRecords(long tableId) {
    return staged.list(
        EntityKind.PARTITION,
        tableId,
        PartitionValue.class,
        v -> new EntityKey.Partition(tableId, v.getPartitionId()));
  }

  private List<TableColumnStatsValue> tableColumnStatsRecords(long tableId) {
    return staged.list(
        EntityKind.TABLE_COLUMN_STATS,
        tableId,
        TableColumnStatsValue.class,
        v -> new EntityKey.TableColumnStats(tableId, v.getColumnId()));
  }

  private static ColumnValue requireColumn(List<ColumnValue> live, long tableId, long columnId) {
    return live.stream()
        .filter(c -> c.getColumnId() == columnId)
        .findFirst()
        .orElseThrow(
            () ->
                notFound(
                    "column "
                        + Long.toUnsignedString(columnId)
                        + " of table "
                        + Long.toUnsignedString(tableId)));
  }

  /** Tables and views share one namespace per schema; {@code self} is a table being renamed. */
  private void relationNameFree(long schemaId, String name, Long self) {
    boolean taken =
        tables().stream()
                .anyMatch(
                    t ->
                        t.getSchemaId() == schemaId
                            && Names.same(t.getTableName(), name)
                            && (self == null || t.getTableId() != self))
            || views().stream()
                .anyMatch(v -> v.getSchemaId() == schemaId && Names.same(v.getViewName(), name));
    if (taken) {
      throw new AlreadyExistsException("a table or view named '" + name + "' already exists");
    }
  }

  private static void siblingNameFree(List<ColumnValue> live, Long parent, String name, Long self) {
    for (ColumnValue c : live) {
      boolean sibling =
          parent == null
              ? !c.hasParentColumn()
              : c.hasParentColumn() && c.getParentColumn() == parent;
      if (sibling
          && Names.same(c.getColumnName(), name)
          && (self == null || c.getColumnId() != self)) {
        throw new AlreadyExistsException("column '" + name + "' already exists");
      }
    }
  }

  /** Stages one column and, in pre-order, its fields; returns the column's id. */
  private long stageColumnTree(long tableId, ColumnDef def, Long parent, long[] counters) {
    long id = counters[0]++;
    long order = counters[1]++;
    ColumnValue.Builder b =
        ColumnValue.newBuilder()
            .setColumnId(id)
            .setBeginSnapshot(newSnapshotId)
            .setTableId(tableId)
            .setColumnOrder(order)
            .setColumnName(def.name())
            .setColumnType(ColumnTrees.storedType(def))
            .setNullsAllowed(def.nullsAllowed());
    // Stock DuckLake 1.5.5 spells "no default" as the literal text NULL, typed 'literal' on a
    // leaf and '' on a nested column, in the duckdb dialect; the Rust crate leaves these absent.
    // Stock DuckLake wins (RFC 0004 lists the case).
    b.setDefaultValue(def.defaultValue().orElse("NULL"))
        .setDefaultValueType(def.children().isEmpty() ? "literal" : "")
        .setDefaultValueDialect("duckdb");
    if (parent != null) {
      b.setParentColumn(parent);
    }
    staged.put(new EntityKey.Column(tableId, id), b.build());
    for (ColumnDef child : def.children()) {
      stageColumnTree(tableId, child, id, counters);
    }
    return id;
  }

  private record OptionalPartition(Long id) {}

  private OptionalPartition partitionFor(long tableId, List<String> values) {
    List<PartitionValue> specs = partitionRecords(tableId);
    if (specs.isEmpty()) {
      if (!values.isEmpty()) {
        throw new InvalidArgumentException(
            values.size()
                + " partition value(s) for table "
                + Long.toUnsignedString(tableId)
                + ", which is not partitioned");
      }
      return new OptionalPartition(null);
    }
    PartitionValue spec = specs.get(0);
    if (values.size() != spec.getColumnsCount()) {
      throw new InvalidArgumentException(
          values.size()
              + " partition value(s) for table "
              + Long.toUnsignedString(tableId)
              + ", whose partition spec has "
              + spec.getColumnsCount()
              + " key(s)");
    }
    for (String v : values) {
      if (v == null) {
        throw new InvalidArgumentException("a partition value is null");
      }
    }
    return new OptionalPartition(spec.getPartitionId());
  }

  private EntityKey.OptionScope optionScope(OptionScope scope, String key) {
    if (scope == null) {
      throw new InvalidArgumentException("option scope must not be null");
    }
    Names.nonEmpty("option", key);
    if (scope instanceof OptionScope.Schema s) {
      if (schema(s.schemaId()).isEmpty()) {
        throw notFound("schema " + Long.toUnsignedString(s.schemaId()));
      }
      return new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, s.schemaId());
    } else if (scope instanceof OptionScope.Table t) {
      requireTable(t.tableId());
      return new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, t.tableId());
    }
    if (key.equals("encrypted")) {
      throw new InvalidArgumentException(
          "the global option 'encrypted' is fixed when the lake is created");
    }
    return EntityKey.OptionScope.global();
  }

  private void ensureOpen() {
    if (sealed) {
      throw new InvalidArgumentException(
          "this transaction handle belongs to a commit whose closure has returned");
    }
  }

  private static void nonNegative(String what, long value) {
    if (value < 0) {
      throw new InvalidArgumentException(what + " must not be negative, got " + value);
    }
  }

  private static NotFoundException notFound(String what) {
    return new NotFoundException(ErrorCode.NOT_FOUND, what + " does not exist");
  }
}
