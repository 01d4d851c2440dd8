package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;
import java.util.UUID;

/**
 * Creating, renaming, moving and dropping tables; {@link Transaction} documents each verb's
 * contract.
 */
public final class TableVerbs {
  private final VerbState s;
  private final ColumnVerbs columns;

  public TableVerbs(VerbState state, ColumnVerbs columns) {
    this.s = state;
    this.columns = columns;
  }

  public long create(long schemaId, String name, List<ColumnDef> defs) {
    SchemaValue schema =
        s.schema(schemaId).orElseThrow(() -> VerbState.notFound("schema " + schemaId));
    Names.pathSafe("table", name);
    s.relationNameFree(schemaId, name, null);
    if (defs == null || defs.isEmpty()) {
      throw new InvalidArgumentException("table '" + name + "' needs at least one column");
    }
    ColumnTrees.validate(defs, "table '" + name + "'");
    long id = s.nextCatalogId++;
    s.staged.put(
        new EntityKey.Table(id),
        TableValue.newBuilder()
            .setTableId(id)
            .setTableUuid(UUID.randomUUID().toString())
            .setBeginSnapshot(s.newSnapshotId)
            .setSchemaId(schemaId)
            .setTableName(name)
            .setPath(name + "/")
            .setPathIsRelative(true)
            .setNextColumnId(ColumnTrees.nodeCount(defs) + 1)
            .build());
    long[] counters = {1, 1}; // next column id, next column order
    for (ColumnDef def : defs) {
      columns.stageTree(id, def, null, counters);
    }
    s.staged.put(new EntityKey.TableStats(id), TableStatsValue.newBuilder().setTableId(id).build());
    s.record(
        DuckLakeOperation.CREATE_TABLE,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_TABLE, schema.getSchemaName(), name));
    s.created(id);
    return id;
  }

  public void rename(long tableId, String newName) {
    Names.pathSafe("table", newName);
    TableValue table = s.requireTable(tableId);
    if (table.getTableName().equals(newName)) {
      throw new InvalidArgumentException("table '" + newName + "' already has that name");
    }
    s.relationNameFree(table.getSchemaId(), newName, tableId);
    s.staged.put(
        new EntityKey.Table(tableId),
        table.toBuilder().setTableName(newName).setBeginSnapshot(s.newSnapshotId).build());
    s.renamed(table.getSchemaId(), newName, tableId);
  }

  public void move(long tableId, long schemaId) {
    TableValue table = s.requireTable(tableId);
    s.requireSchema(schemaId);
    if (table.getSchemaId() == schemaId) {
      throw new InvalidArgumentException("the table is already in that schema");
    }
    s.relationNameFree(schemaId, table.getTableName(), null);
    s.staged.put(
        new EntityKey.Table(tableId),
        table.toBuilder().setSchemaId(schemaId).setBeginSnapshot(s.newSnapshotId).build());
    s.renamed(schemaId, table.getTableName(), tableId);
  }

  public void drop(long tableId) {
    s.requireTable(tableId);
    s.staged.delete(new EntityKey.Table(tableId));
    for (ColumnValue c : s.columnRecords(tableId)) {
      s.staged.delete(new EntityKey.Column(tableId, c.getColumnId()));
    }
    for (DataFileValue f : s.dataFileRecords(tableId)) {
      s.staged.delete(new EntityKey.DataFile(tableId, f.getDataFileId()));
    }
    for (DeleteFileValue f : s.deleteFileRecords(tableId)) {
      s.staged.delete(new EntityKey.DeleteFile(tableId, f.getDeleteFileId()));
    }
    for (PartitionValue p : s.partitionRecords(tableId)) {
      s.staged.delete(new EntityKey.Partition(tableId, p.getPartitionId()));
    }
    for (SortValue v :
        s.staged.list(
            EntityKind.SORT,
            tableId,
            SortValue.class,
            x -> new EntityKey.Sort(tableId, x.getSortId()))) {
      s.staged.delete(new EntityKey.Sort(tableId, v.getSortId()));
    }
    for (IndexValue i :
        s.staged.list(
            EntityKind.INDEX_DEFINITION,
            tableId,
            IndexValue.class,
            x -> new EntityKey.IndexDefinition(tableId, x.getIndexId()))) {
      s.staged.delete(new EntityKey.IndexDefinition(tableId, i.getIndexId()));
    }
    // The table's statistics records stay: stock DuckLake keeps a dropped table's
    // ducklake_table_stats and ducklake_table_column_stats rows (the Rust crate deletes them; RFC
    // 0004 lists the case).
    s.staged.delete(new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, tableId));
    s.record(DuckLakeOperation.DROP_TABLE, new ChangeEntry.ById(ChangeKind.DROPPED_TABLE, tableId));
  }
}
