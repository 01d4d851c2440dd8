package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.view.NameIndex;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import dev.moraine.ducklake.rows.SchemaRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The staged-row door's schemas and views (RFC 0006 §4.2, §13): CREATE SCHEMA and CREATE VIEW as
 * the {@code ducklake_schema} and {@code ducklake_view} rows DuckLake inserts, with its ids, uuids
 * and paths as given, and DROP SCHEMA and DROP VIEW as the ends of those rows. A new schema or view
 * takes an id from the commit's range of {@code next_catalog_id}, begins at the commit's snapshot
 * and takes a name no live schema (or table or view of its schema) has; an ended one is the live
 * row the lake holds, ended at the commit's snapshot, and a dropped schema holds nothing live once
 * the commit's own drops are done. The records are those the verb path writes for the same
 * statements. Confined to the thread running the translation.
 */
final class StagedNamespaces {
  private final StagedEntities staged;
  private final long n;
  private final List<DuckLakeOperation> operations = new ArrayList<>();
  private final Set<List<Long>> seen = new HashSet<>();

  StagedNamespaces(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /** Creates the schemas, before the tables and views that may go into them. */
  void createSchemas(List<SchemaRow> rows, SnapshotValue premiseRecord, SnapshotValue record) {
    for (SchemaRow r : rows) {
      long id = required(r.schemaId(), r, "schema_id");
      newEntry("schema", id, r.beginSnapshot(), premiseRecord, record);
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      String name = required(r.schemaName(), r, "schema_name");
      boolean taken =
          staged.named(EntityKind.SCHEMA, NameIndex.SCHEMA_SCOPE, name, SchemaValue.class).stream()
              .anyMatch(v -> Names.same(v.getSchemaName(), name));
      if (taken) {
        throw new AlreadyExistsException("schema '" + name + "' already exists");
      }
      staged.put(
          new EntityKey.Schema(id),
          SchemaValue.newBuilder()
              .setSchemaId(id)
              .setSchemaUuid(required(r.schemaUuid(), r, "schema_uuid").toString())
              .setBeginSnapshot(n)
              .setSchemaName(name)
              .setPath(required(r.path(), r, "path"))
              .setPathIsRelative(required(r.pathIsRelative(), r, "path_is_relative"))
              .build());
      operations.add(DuckLakeOperation.CREATE_SCHEMA);
    }
  }

  /** Creates the views, once the schemas they go into exist. */
  void createViews(List<ViewRow> rows, SnapshotValue premiseRecord, SnapshotValue record) {
    for (ViewRow r : rows) {
      long id = required(r.viewId(), r, "view_id");
      newEntry("view", id, r.beginSnapshot(), premiseRecord, record);
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      long schemaId = required(r.schemaId(), r, "schema_id");
      String name = required(r.viewName(), r, "view_name");
      requireRelationName(staged, "view", schemaId, name);
      ViewValue.Builder value =
          ViewValue.newBuilder()
              .setViewId(id)
              .setViewUuid(required(r.viewUuid(), r, "view_uuid").toString())
              .setBeginSnapshot(n)
              .setSchemaId(schemaId)
              .setViewName(name)
              .setDialect(required(r.dialect(), r, "dialect"))
              .setSql(required(r.sql(), r, "sql"));
      if (r.columnAliases() != null) {
        value.setColumnAliases(r.columnAliases());
      }
      staged.put(new EntityKey.View(id), value.build());
      operations.add(DuckLakeOperation.CREATE_VIEW);
    }
  }

  /** Drops the views the commit ends: each the live row the lake holds. */
  void dropViews(List<StagedRows.End> ends) {
    for (StagedRows.End e : ends) {
      ViewRow r = (ViewRow) e.row();
      long id = required(r.viewId(), r, "view_id");
      once(List.of(2L, id), r.toString());
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      ViewValue v =
          staged.get(new EntityKey.View(id), ViewValue.class).orElseThrow(() -> gone("view", id));
      boolean same =
          Long.valueOf(v.getBeginSnapshot()).equals(r.beginSnapshot())
              && Long.valueOf(v.getSchemaId()).equals(r.schemaId())
              && v.getViewName().equals(r.viewName())
              && v.getSql().equals(r.sql());
      if (!same || e.endSnapshot() != n) {
        throw new InvalidArgumentException(
            "the end of view "
                + Long.toUnsignedString(id)
                + " is not of the row the lake holds, or not at snapshot "
                + n);
      }
      staged.delete(new EntityKey.View(id));
      operations.add(DuckLakeOperation.DROP_VIEW);
    }
  }

  /**
   * Drops the schemas the commit ends, once its other drops are done: each the live row the lake
   * holds, emptied of tables, views and macros; its options go with it, as in the verb path.
   */
  void dropSchemas(List<StagedRows.End> ends) {
    for (StagedRows.End e : ends) {
      SchemaRow r = (SchemaRow) e.row();
      long id = required(r.schemaId(), r, "schema_id");
      once(List.of(1L, id), r.toString());
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      SchemaValue v =
          staged
              .get(new EntityKey.Schema(id), SchemaValue.class)
              .orElseThrow(() -> gone("schema", id));
      boolean same =
          Long.valueOf(v.getBeginSnapshot()).equals(r.beginSnapshot())
              && v.getSchemaName().equals(r.schemaName());
      if (!same || e.endSnapshot() != n) {
        throw new InvalidArgumentException(
            "the end of schema "
                + Long.toUnsignedString(id)
                + " is not of the row the lake holds, or not at snapshot "
                + n);
      }
      if (staged.anyIn(EntityKind.TABLE, id)
          || staged.anyIn(EntityKind.VIEW, id)
          || staged.anyIn(EntityKind.MACRO, id)) {
        throw new InvalidArgumentException(
            "schema "
                + Long.toUnsignedString(id)
                + " is dropped while it still holds tables, views or macros the commit leaves"
                + " live");
      }
      staged.delete(new EntityKey.Schema(id));
      staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, id));
      operations.add(DuckLakeOperation.DROP_SCHEMA);
    }
  }

  /**
   * Refuses a new table or view ({@code what}) named {@code name} in schema {@code schemaId} unless
   * the schema is live and no live table or view of it has the name.
   */
  static void requireRelationName(StagedEntities staged, String what, long schemaId, String name) {
    if (staged.get(new EntityKey.Schema(schemaId), SchemaValue.class).isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          what + " '" + name + "' names schema " + Long.toUnsignedString(schemaId) + ", not live");
    }
    boolean taken =
        staged.named(EntityKind.TABLE, schemaId, name, TableValue.class).stream()
                .anyMatch(t -> Names.same(t.getTableName(), name))
            || staged.named(EntityKind.VIEW, schemaId, name, ViewValue.class).stream()
                .anyMatch(v -> Names.same(v.getViewName(), name));
    if (taken) {
      throw new AlreadyExistsException("a table or view named '" + name + "' already exists");
    }
  }

  /** The operations the commit path counts for the schema version. */
  List<DuckLakeOperation> operations() {
    return List.copyOf(operations);
  }

  private void newEntry(
      String what, long id, Long begin, SnapshotValue premiseRecord, SnapshotValue record) {
    once(List.of(0L, id), what + " " + id);
    if (!StagedRowChecks.drawn(id, premiseRecord, record)) {
      throw new InvalidArgumentException(
          what
              + " "
              + Long.toUnsignedString(id)
              + ": a new "
              + what
              + "'s id lies in this commit's range of next_catalog_id, "
              + Long.toUnsignedString(premiseRecord.getNextCatalogId())
              + " up to "
              + Long.toUnsignedString(record.getNextCatalogId())
              + ", not included");
    }
    if (begin == null || begin != n) {
      throw new InvalidArgumentException(
          what + " " + Long.toUnsignedString(id) + " begins at " + begin + ", not " + n);
    }
  }

  private void once(List<Long> key, String what) {
    if (!seen.add(key)) {
      throw new InvalidArgumentException(what + " is given twice");
    }
  }

  private static NotFoundException gone(String what, long id) {
    return new NotFoundException(
        ErrorCode.NOT_FOUND,
        "the commit's rows end " + what + " " + Long.toUnsignedString(id) + ", which is not live");
  }
}
