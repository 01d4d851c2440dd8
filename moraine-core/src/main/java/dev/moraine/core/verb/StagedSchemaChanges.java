package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.once;
import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import dev.moraine.ducklake.rows.ColumnRow;
import dev.moraine.ducklake.rows.SchemaVersionsRow;
import dev.moraine.ducklake.rows.TableRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's schema changes (RFC 0006 §4.2, §4.10, §13): tables created, their columns
 * changed, and tables dropped. For a creation, the {@code ducklake_table}, {@code ducklake_column}
 * and {@code ducklake_schema_versions} rows DuckLake writes for a CREATE TABLE (and a CREATE TABLE
 * AS, whose files follow in the same commit), translated into the records the verb path writes for
 * the same table: the table with its next column id (the highest column id plus one), its columns,
 * a zeroed statistics record (the keyspace keeps one from a table's creation on), and the table
 * among the commit's schema-changed tables, which the commit path turns into the {@code 08}
 * schema-version record and the snapshot's {@code schema_changed_table_ids}. Column changes end and
 * insert {@code ducklake_column} rows of a live table, and a drop ends the table with its columns,
 * files and partitioning.
 *
 * <p>Confined to the thread running the translation.
 */
final class StagedSchemaChanges {
  private final StagedEntities staged;
  private final long n;

  /** The tables this commit creates, by id, in order. */
  private final Map<Long, TableValue> created = new LinkedHashMap<>();

  /** (table, column) ids this commit creates. */
  private final Set<List<Long>> columns = new HashSet<>();

  /** Existing tables this commit drops. */
  private final Set<Long> dropped = new java.util.TreeSet<>();

  /** Existing tables whose columns this commit changes. */
  private final Set<Long> altered = new java.util.TreeSet<>();

  /** (table, column) -> the version this commit ends. */
  private final Map<List<Long>, ColumnValue> ended = new HashMap<>();

  StagedSchemaChanges(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /**
   * Creates the tables, then their columns, checking each against the base and the new snapshot
   * {@code record} (its catalog counter bounds the new ids, its schema version is the one the
   * {@code ducklake_schema_versions} rows must carry).
   */
  void apply(
      SnapshotValue premiseRecord,
      SnapshotValue record,
      List<TableRow> tables,
      List<ColumnRow> columnRows,
      List<StagedRows.End> columnEnds,
      List<SchemaVersionsRow> versions,
      List<StagedRows.End> tableEnds,
      List<StagedRows.End> partitionEnds) {
    Set<List<Long>> seen = new HashSet<>();
    // Drops first: a table created under a dropped table's name in the same commit (CREATE OR
    // REPLACE) finds the name free.
    for (StagedRows.End e : tableEnds) {
      dropTable(e, seen);
    }
    for (TableRow r : tables) {
      createTable(r, premiseRecord, record, seen);
    }
    for (StagedRows.End e : partitionEnds) {
      endPartition(e, seen);
    }
    // Columns of existing tables ended (dropped, or replaced by a new version below).
    for (StagedRows.End e : columnEnds) {
      endColumn(e, seen);
    }
    Map<Long, Long> highest = new HashMap<>();
    Map<Long, List<ColumnRow>> byTable = new HashMap<>();
    for (ColumnRow c : columnRows) {
      long tableId = required(c.tableId(), c, "table_id");
      if (!created.containsKey(tableId)) {
        liveTable(tableId);
        altered.add(tableId);
      }
      long columnId = required(c.columnId(), c, "column_id");
      once(seen, List.of(5L, tableId, columnId), c);
      columns.add(List.of(tableId, columnId));
      highest.merge(tableId, columnId, Math::max);
      byTable.computeIfAbsent(tableId, k -> new ArrayList<>()).add(c);
    }
    for (ColumnRow c : columnRows) {
      createColumn(c);
    }
    Set<Long> versioned = new HashSet<>();
    for (SchemaVersionsRow v : versions) {
      long tableId = required(v.tableId(), v, "table_id");
      if ((!created.containsKey(tableId) && !altered.contains(tableId))
          || !versioned.add(tableId)) {
        throw new InvalidArgumentException(
            "a ducklake_schema_versions row for table "
                + Long.toUnsignedString(tableId)
                + ", whose columns this commit neither creates nor changes, or a second one");
      }
      if (required(v.beginSnapshot(), v, "begin_snapshot") != n
          || required(v.schemaVersion(), v, "schema_version") != record.getSchemaVersion()) {
        throw new InvalidArgumentException(
            "the ducklake_schema_versions row of table "
                + Long.toUnsignedString(tableId)
                + " is not (snapshot "
                + n
                + ", schema version "
                + record.getSchemaVersion()
                + ")");
      }
    }
    for (Map.Entry<Long, TableValue> e : created.entrySet()) {
      long tableId = e.getKey();
      if (!byTable.containsKey(tableId) || !versioned.contains(tableId)) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(tableId)
                + " is created without columns or without its ducklake_schema_versions row");
      }
      staged.put(
          new EntityKey.Table(tableId),
          e.getValue().toBuilder().setNextColumnId(highest.get(tableId) + 1).build());
      staged.put(
          new EntityKey.TableStats(tableId),
          TableStatsValue.newBuilder().setTableId(tableId).build());
    }
    for (long tableId : altered) {
      if (!versioned.contains(tableId)) {
        throw new InvalidArgumentException(
            "the columns of table "
                + Long.toUnsignedString(tableId)
                + " change without its ducklake_schema_versions row");
      }
      TableValue table = liveTable(tableId);
      refuseIndexed(tableId, table, "a change of its columns");
      requireWellFormed(tableId);
      Long top = highest.get(tableId);
      if (top != null && Long.compareUnsigned(top + 1, table.getNextColumnId()) > 0) {
        // Raising the counter alone overwrites the table's record in place (RFC 0002 §12.1).
        staged.put(
            new EntityKey.Table(tableId), table.toBuilder().setNextColumnId(top + 1).build());
      }
    }
  }

  /** A live column of an existing table ended at N: the row must be the stored one. */
  private void endColumn(StagedRows.End e, Set<List<Long>> seen) {
    ColumnRow r = (ColumnRow) e.row();
    long tableId = required(r.tableId(), r, "table_id");
    long columnId = required(r.columnId(), r, "column_id");
    once(seen, List.of(6L, tableId, columnId), r);
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    if (e.endSnapshot() != n) {
      throw new InvalidArgumentException(
          "column "
              + columnId
              + " of table "
              + tableId
              + " is ended at "
              + e.endSnapshot()
              + ", not "
              + n);
    }
    if (!dropped.contains(tableId)) {
      liveTable(tableId);
    }
    EntityKey key = new EntityKey.Column(tableId, columnId);
    ColumnValue stored =
        staged
            .get(key, ColumnValue.class)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "column "
                            + Long.toUnsignedString(columnId)
                            + " of table "
                            + Long.toUnsignedString(tableId)
                            + ", which is not live"));
    if (!Long.valueOf(stored.getBeginSnapshot()).equals(r.beginSnapshot())
        || !stored.getColumnName().equals(r.columnName())
        || !stored.getColumnType().equals(r.columnType())) {
      throw new InvalidArgumentException(
          "the end of column "
              + Long.toUnsignedString(columnId)
              + " of table "
              + Long.toUnsignedString(tableId)
              + " is not of the row the lake holds");
    }
    staged.delete(key);
    ended.put(List.of(tableId, columnId), stored);
    if (!dropped.contains(tableId)) {
      altered.add(tableId);
    }
  }

  /**
   * DROP TABLE: the table's row ended at N, as stock ends it (RFC 0006 §10), with every live
   * column, file and partitioning of it ended by the same commit ({@link #requireDropsComplete}).
   * Its statistics records stay, as stock keeps them, and its options go, as the verb path's drop
   * removes them.
   */
  private void dropTable(StagedRows.End e, Set<List<Long>> seen) {
    TableRow r = (TableRow) e.row();
    long tableId = required(r.tableId(), r, "table_id");
    once(seen, List.of(7L, tableId), r);
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    TableValue stored = liveTable(tableId);
    if (e.endSnapshot() != n
        || !Long.valueOf(stored.getBeginSnapshot()).equals(r.beginSnapshot())
        || !stored.getTableName().equals(r.tableName())
        || !Long.valueOf(stored.getSchemaId()).equals(r.schemaId())) {
      throw new InvalidArgumentException(
          "the end of table "
              + Long.toUnsignedString(tableId)
              + " is not of the row the lake holds, or not at "
              + n);
    }
    refuseIndexed(tableId, stored, "a DROP TABLE (drop it through Catalog.commit)");
    staged.delete(new EntityKey.Table(tableId));
    staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, tableId));
    dropped.add(tableId);
  }

  /** The end of a dropped table's partitioning, as stock ends it with the table. */
  private void endPartition(StagedRows.End e, Set<List<Long>> seen) {
    dev.moraine.ducklake.rows.PartitionInfoRow r =
        (dev.moraine.ducklake.rows.PartitionInfoRow) e.row();
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.partitionId(), r, "partition_id");
    once(seen, List.of(8L, tableId, id), r);
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    EntityKey key = new EntityKey.Partition(tableId, id);
    if (!dropped.contains(tableId)
        || e.endSnapshot() != n
        || staged.get(key, dev.moraine.core.keyspace.proto.PartitionValue.class).isEmpty()) {
      throw new InvalidArgumentException(
          "an end of ducklake_partition_info row "
              + Long.toUnsignedString(id)
              + ": the staged-row door takes it only with the drop of its table, of a live"
              + " partitioning, at "
              + n);
    }
    staged.delete(key);
  }

  /**
   * After every end of the commit: a table it drops has nothing live left (DuckLake ends its
   * columns, files and partitioning with it).
   */
  void requireDropsComplete() {
    for (long tableId : dropped) {
      boolean left =
          !staged
                  .list(
                      EntityKind.COLUMN,
                      tableId,
                      ColumnValue.class,
                      c -> new EntityKey.Column(tableId, c.getColumnId()))
                  .isEmpty()
              || !staged
                  .list(
                      EntityKind.DATA_FILE,
                      tableId,
                      dev.moraine.core.keyspace.proto.DataFileValue.class,
                      f -> new EntityKey.DataFile(tableId, f.getDataFileId()))
                  .isEmpty()
              || !staged
                  .list(
                      EntityKind.DELETE_FILE,
                      tableId,
                      dev.moraine.core.keyspace.proto.DeleteFileValue.class,
                      f -> new EntityKey.DeleteFile(tableId, f.getDeleteFileId()))
                  .isEmpty()
              || !staged
                  .list(
                      EntityKind.PARTITION,
                      tableId,
                      dev.moraine.core.keyspace.proto.PartitionValue.class,
                      p -> new EntityKey.Partition(tableId, p.getPartitionId()))
                  .isEmpty()
              || !staged
                  .list(
                      EntityKind.SORT,
                      tableId,
                      dev.moraine.core.keyspace.proto.SortValue.class,
                      x -> new EntityKey.Sort(tableId, x.getSortId()))
                  .isEmpty();
      if (left) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(tableId)
                + " is dropped with columns, files, partitioning or a sort key of it left live:"
                + " DuckLake ends them all with the table");
      }
    }
  }

  /**
   * The equality indexes of a table name its columns, whose entries this door does not maintain: a
   * change of its columns or its drop goes through {@code Catalog.commit}.
   */
  private void refuseIndexed(long tableId, TableValue table, String what) {
    List<String> indexes =
        staged
            .list(
                EntityKind.INDEX_DEFINITION,
                tableId,
                dev.moraine.core.keyspace.proto.IndexValue.class,
                x -> new EntityKey.IndexDefinition(tableId, x.getIndexId()))
            .stream()
            .map(dev.moraine.core.keyspace.proto.IndexValue::getIndexName)
            .toList();
    if (!indexes.isEmpty()) {
      String schema =
          staged
              .get(new EntityKey.Schema(table.getSchemaId()), SchemaValue.class)
              .map(SchemaValue::getSchemaName)
              .orElse("?");
      throw new dev.moraine.core.catalog.IndexedTableException(
          "commitStaged (" + what + ")", tableId, schema, table.getTableName(), indexes);
    }
  }

  /**
   * The columns a commit leaves a table with, as the verb path keeps them: at least one, each
   * nested one's parent live, no two siblings of one name.
   */
  private void requireWellFormed(long tableId) {
    List<ColumnValue> live =
        staged.list(
            EntityKind.COLUMN,
            tableId,
            ColumnValue.class,
            c -> new EntityKey.Column(tableId, c.getColumnId()));
    if (live.stream().noneMatch(c -> !c.hasParentColumn())) {
      throw new InvalidArgumentException(
          "the commit leaves table " + Long.toUnsignedString(tableId) + " without columns");
    }
    Set<Long> ids = new HashSet<>();
    live.forEach(c -> ids.add(c.getColumnId()));
    Map<Long, List<String>> namesByParent = new HashMap<>();
    for (ColumnValue c : live) {
      long parent = c.hasParentColumn() ? c.getParentColumn() : -1;
      if (c.hasParentColumn() && !ids.contains(parent)) {
        throw new InvalidArgumentException(
            "column "
                + Long.toUnsignedString(c.getColumnId())
                + " of table "
                + Long.toUnsignedString(tableId)
                + " is left live under a parent the commit ends");
      }
      List<String> siblings = namesByParent.computeIfAbsent(parent, k -> new ArrayList<>());
      if (siblings.stream().anyMatch(name -> Names.same(name, c.getColumnName()))) {
        throw new AlreadyExistsException(
            "table "
                + Long.toUnsignedString(tableId)
                + " would have two columns named '"
                + c.getColumnName()
                + "'");
      }
      siblings.add(c.getColumnName());
    }
  }

  private TableValue liveTable(long tableId) {
    return staged
        .get(new EntityKey.Table(tableId), TableValue.class)
        .orElseThrow(
            () ->
                new NotFoundException(
                    ErrorCode.NOT_FOUND,
                    "the commit's rows name table "
                        + Long.toUnsignedString(tableId)
                        + ", which is not live"));
  }

  private void createTable(
      TableRow r, SnapshotValue premiseRecord, SnapshotValue record, Set<List<Long>> seen) {
    long id = required(r.tableId(), r, "table_id");
    once(seen, List.of(3L, id), r);
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    if (!StagedRowChecks.drawn(id, premiseRecord, record)) {
      throw new InvalidArgumentException(
          "table "
              + Long.toUnsignedString(id)
              + ": a new table's id lies in this commit's range of next_catalog_id, "
              + Long.toUnsignedString(premiseRecord.getNextCatalogId())
              + " up to "
              + Long.toUnsignedString(record.getNextCatalogId())
              + ", not included (changing an existing table is not taken yet)");
    }
    if (required(r.beginSnapshot(), r, "begin_snapshot") != n) {
      throw new InvalidArgumentException(
          "table " + Long.toUnsignedString(id) + " begins at " + r.beginSnapshot() + ", not " + n);
    }
    long schemaId = required(r.schemaId(), r, "schema_id");
    String name = required(r.tableName(), r, "table_name");
    StagedNamespaces.requireRelationName(staged, "table", schemaId, name);
    TableValue value =
        TableValue.newBuilder()
            .setTableId(id)
            .setTableUuid(required(r.tableUuid(), r, "table_uuid").toString())
            .setBeginSnapshot(n)
            .setSchemaId(schemaId)
            .setTableName(name)
            .setPath(required(r.path(), r, "path"))
            .setPathIsRelative(required(r.pathIsRelative(), r, "path_is_relative"))
            .build();
    staged.put(new EntityKey.Table(id), value);
    created.put(id, value);
  }

  private void createColumn(ColumnRow c) {
    long tableId = c.tableId();
    long id = c.columnId();
    ColumnValue replaced = ended.get(List.of(tableId, id));
    if (!created.containsKey(tableId) && replaced == null) {
      // A new column of an existing table: an id the table has not handed out, and no live one.
      if (Long.compareUnsigned(id, liveTable(tableId).getNextColumnId()) < 0
          || staged.get(new EntityKey.Column(tableId, id), ColumnValue.class).isPresent()) {
        throw new InvalidArgumentException(
            "column "
                + Long.toUnsignedString(id)
                + " of table "
                + Long.toUnsignedString(tableId)
                + " is neither new (at or above the table's next column id) nor the new version"
                + " of a column this commit ends");
      }
    }
    requireAbsent(c.endSnapshot(), c, "end_snapshot");
    if (required(c.beginSnapshot(), c, "begin_snapshot") != n) {
      throw new InvalidArgumentException(
          "column " + Long.toUnsignedString(id) + " begins at " + c.beginSnapshot() + ", not " + n);
    }
    String type = required(c.columnType(), c, "column_type");
    if (type.equals("variant")) {
      throw new InvalidArgumentException(
          "column '" + c.columnName() + "' is a variant, which this lake format cannot hold");
    }
    ColumnValue.Builder value =
        ColumnValue.newBuilder()
            .setColumnId(id)
            .setBeginSnapshot(n)
            .setTableId(tableId)
            .setColumnOrder(required(c.columnOrder(), c, "column_order"))
            .setColumnName(required(c.columnName(), c, "column_name"))
            .setColumnType(type)
            .setNullsAllowed(required(c.nullsAllowed(), c, "nulls_allowed"));
    if (c.initialDefault() != null) {
      value.setInitialDefault(c.initialDefault());
    }
    if (c.defaultValue() != null) {
      value.setDefaultValue(c.defaultValue());
    }
    if (replaced != null) {
      // The tags of a column ride with its versions (ducklake_column_tag rows name the id).
      value.addAllTags(replaced.getTagsList());
    }
    if (c.parentColumn() != null) {
      if (!columns.contains(List.of(tableId, c.parentColumn()))
          && staged
              .get(new EntityKey.Column(tableId, c.parentColumn()), ColumnValue.class)
              .isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "column "
                + Long.toUnsignedString(id)
                + " names parent column "
                + Long.toUnsignedString(c.parentColumn())
                + ", which this commit does not create in table "
                + Long.toUnsignedString(tableId));
      }
      value.setParentColumn(c.parentColumn());
    }
    if (c.defaultValueType() != null) {
      value.setDefaultValueType(c.defaultValueType());
    }
    if (c.defaultValueDialect() != null) {
      value.setDefaultValueDialect(c.defaultValueDialect());
    }
    staged.put(new EntityKey.Column(tableId, id), value.build());
  }

  /**
   * Counts {@code tableIds}, whose shape the commit changes otherwise than by their columns (their
   * partitioning), among its altered tables: each needs its schema-versions row.
   */
  void alteredBeside(Set<Long> tableIds) {
    for (long tableId : tableIds) {
      if (!dropped.contains(tableId) && !created.containsKey(tableId)) {
        altered.add(tableId);
      }
    }
  }

  /** The tables this commit creates or changes the columns of: its schema-changed tables. */
  List<Long> createdIds() {
    List<Long> ids = new ArrayList<>(created.keySet());
    ids.addAll(altered);
    return ids;
  }

  /** Whether this commit creates table {@code tableId}. */
  boolean creates(long tableId) {
    return created.containsKey(tableId);
  }

  /** Whether this commit creates column {@code columnId} of table {@code tableId}. */
  boolean createsColumn(long tableId, long columnId) {
    return columns.contains(List.of(tableId, columnId));
  }

  /** The operations the commit path counts for the schema version: one per table created. */
  List<DuckLakeOperation> operations() {
    List<DuckLakeOperation> ops = new ArrayList<>();
    created.keySet().forEach(id -> ops.add(DuckLakeOperation.CREATE_TABLE));
    altered.forEach(id -> ops.add(DuckLakeOperation.ADD_COLUMN));
    dropped.forEach(id -> ops.add(DuckLakeOperation.DROP_TABLE));
    return ops;
  }
}
