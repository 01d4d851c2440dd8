package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.view.NameIndex;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.UUID;

/** Creating and dropping schemas; {@link Transaction} documents each verb's contract. */
public final class SchemaVerbs {
  private final VerbState s;

  public SchemaVerbs(VerbState state) {
    this.s = state;
  }

  public long create(String name) {
    Names.pathSafe("schema", name);
    boolean taken =
        s.staged.named(EntityKind.SCHEMA, NameIndex.SCHEMA_SCOPE, name, SchemaValue.class).stream()
            .anyMatch(v -> Names.same(v.getSchemaName(), name));
    if (taken) {
      throw new AlreadyExistsException("schema '" + name + "' already exists");
    }
    long id = s.nextCatalogId++;
    s.staged.put(
        new EntityKey.Schema(id),
        SchemaValue.newBuilder()
            .setSchemaId(id)
            .setSchemaUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(s.newSnapshotId)
            .setSchemaName(name)
            .setPath(name + "/")
            .setPathIsRelative(true)
            .build());
    s.record(DuckLakeOperation.CREATE_SCHEMA, new ChangeEntry.BySchemaName(name));
    return id;
  }

  public void drop(long schemaId) {
    if (schemaId == 0) {
      throw new InvalidArgumentException("the main schema cannot be dropped");
    }
    s.requireSchema(schemaId);
    boolean occupied =
        s.staged.anyIn(EntityKind.TABLE, schemaId)
            || s.staged.anyIn(EntityKind.VIEW, schemaId)
            || s.staged.anyIn(EntityKind.MACRO, schemaId);
    if (occupied) {
      throw new InvalidArgumentException(
          "schema " + Long.toUnsignedString(schemaId) + " still holds tables, views or macros");
    }
    s.staged.delete(new EntityKey.Schema(schemaId));
    s.staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, schemaId));
    s.record(
        DuckLakeOperation.DROP_SCHEMA, new ChangeEntry.ById(ChangeKind.DROPPED_SCHEMA, schemaId));
  }
}
