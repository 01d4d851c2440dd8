package dev.moraine.core.verb;

import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.UUID;

/**
 * Creating, altering, renaming and dropping views; {@link Transaction} documents each verb.
 *
 * <p>Each bumps {@code schema_version} and none writes a {@code schema_versions} record: stock
 * DuckLake keeps those rows for tables. The Rust implementation's create and alter write one for
 * the view's id; RFC 0002 §16 item 8 says why the lake follows stock DuckLake here.
 */
public final class ViewVerbs {
  private final VerbState s;

  public ViewVerbs(VerbState state) {
    this.s = state;
  }

  public long create(long schemaId, String name, String dialect, String sql) {
    SchemaValue schema = s.requireSchema(schemaId);
    Names.pathSafe("view", name);
    Names.nonEmpty("dialect", dialect);
    Names.nonEmpty("view SQL", sql);
    s.relationNameFree(schemaId, name, null);
    long id = s.nextCatalogId++;
    s.staged.put(
        new EntityKey.View(id),
        ViewValue.newBuilder()
            .setViewId(id)
            .setViewUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(s.newSnapshotId)
            .setSchemaId(schemaId)
            .setViewName(name)
            .setDialect(dialect)
            .setSql(sql)
            // Stock DuckLake writes an empty alias list as '', not NULL.
            .setColumnAliases("")
            .build());
    s.record(
        DuckLakeOperation.CREATE_VIEW,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_VIEW, schema.getSchemaName(), name));
    // No ducklake_schema_versions row: stock DuckLake writes those for tables only.
    return id;
  }

  public void alter(long viewId, String dialect, String sql) {
    Names.nonEmpty("dialect", dialect);
    Names.nonEmpty("view SQL", sql);
    ViewValue view = requireView(viewId);
    s.staged.put(
        new EntityKey.View(viewId),
        view.toBuilder().setDialect(dialect).setSql(sql).setBeginSnapshot(s.newSnapshotId).build());
    s.operations.add(DuckLakeOperation.COMMENT_ON_VIEW);
    if (!s.provisional(viewId)) {
      s.changes.add(new ChangeEntry.ById(ChangeKind.ALTERED_VIEW, viewId));
    }
  }

  public void rename(long viewId, String newName) {
    Names.pathSafe("view", newName);
    ViewValue view = requireView(viewId);
    s.relationNameFree(view.getSchemaId(), newName, null);
    s.staged.put(
        new EntityKey.View(viewId),
        view.toBuilder().setViewName(newName).setBeginSnapshot(s.newSnapshotId).build());
    SchemaValue schema = s.schema(view.getSchemaId()).orElseThrow();
    s.record(
        DuckLakeOperation.RENAME_VIEW,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_VIEW, schema.getSchemaName(), newName));
  }

  public void drop(long viewId) {
    requireView(viewId);
    s.staged.delete(new EntityKey.View(viewId));
    s.record(DuckLakeOperation.DROP_VIEW, new ChangeEntry.ById(ChangeKind.DROPPED_VIEW, viewId));
  }

  private ViewValue requireView(long viewId) {
    return s.staged
        .get(new EntityKey.View(viewId), ViewValue.class)
        .orElseThrow(() -> VerbState.notFound("view " + Long.toUnsignedString(viewId)));
  }
}
