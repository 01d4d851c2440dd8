package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.once;
import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
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
 * The staged-row door's table creation (RFC 0006 §4.2, §4.10): the {@code ducklake_table}, {@code
 * ducklake_column} and {@code ducklake_schema_versions} rows DuckLake writes for a CREATE TABLE
 * (and a CREATE TABLE AS, whose files follow in the same commit), translated into the records the
 * verb path writes for the same table: the table with its next column id (the highest column id
 * plus one), its columns, a zeroed statistics record (the keyspace keeps one from a table's
 * creation on), and the table among the commit's schema-changed tables, which the commit path turns
 * into the {@code 08} schema-version record and the snapshot's {@code schema_changed_table_ids}.
 *
 * <p>Confined to the thread running the translation.
 */
final class StagedTableCreation {
  private final StagedEntities staged;
  private final long n;

  /** The tables this commit creates, by id, in order. */
  private final Map<Long, TableValue> created = new LinkedHashMap<>();

  /** (table, column) ids this commit creates. */
  private final Set<List<Long>> columns = new HashSet<>();

  StagedTableCreation(StagedEntities staged, long n) {
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
      List<SchemaVersionsRow> versions) {
    Set<List<Long>> seen = new HashSet<>();
    for (TableRow r : tables) {
      createTable(r, premiseRecord, record, seen);
    }
    Map<Long, Long> highest = new HashMap<>();
    Map<Long, List<ColumnRow>> byTable = new HashMap<>();
    for (ColumnRow c : columnRows) {
      long tableId = required(c.tableId(), c, "table_id");
      if (!created.containsKey(tableId)) {
        throw new InvalidArgumentException(
            "a ducklake_column row of table "
                + Long.toUnsignedString(tableId)
                + ", which this commit does not create: changing the columns of a table is not"
                + " taken by the staged-row door yet");
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
      if (!created.containsKey(tableId) || !versioned.add(tableId)) {
        throw new InvalidArgumentException(
            "a ducklake_schema_versions row for table "
                + Long.toUnsignedString(tableId)
                + ", which this commit does not create, or a second one");
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
  }

  private void createTable(
      TableRow r, SnapshotValue premiseRecord, SnapshotValue record, Set<List<Long>> seen) {
    long id = required(r.tableId(), r, "table_id");
    once(seen, List.of(3L, id), r);
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    if (Long.compareUnsigned(id, premiseRecord.getNextCatalogId()) < 0
        || Long.compareUnsigned(id, record.getNextCatalogId()) >= 0) {
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
    if (staged.get(new EntityKey.Schema(schemaId), SchemaValue.class).isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "table '" + name + "' names schema " + Long.toUnsignedString(schemaId) + ", not live");
    }
    boolean taken =
        staged.named(EntityKind.TABLE, schemaId, name, TableValue.class).stream()
                .anyMatch(t -> Names.same(t.getTableName(), name))
            || staged.named(EntityKind.VIEW, schemaId, name, ViewValue.class).stream()
                .anyMatch(v -> Names.same(v.getViewName(), name));
    if (taken) {
      throw new AlreadyExistsException("a table or view named '" + name + "' already exists");
    }
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
    if (c.parentColumn() != null) {
      if (!columns.contains(List.of(tableId, c.parentColumn()))) {
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

  /** The tables this commit creates. */
  List<Long> createdIds() {
    return List.copyOf(created.keySet());
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
    return ops;
  }
}
