package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.PartitionColumn;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SortExpression;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Setting and resetting a table's partition key and sort key; {@link Transaction} documents each
 * verb's contract.
 *
 * <p>The records are staged as the keyspace keeps them: a table has at most one live spec of each
 * kind, setting one ends the live one into history and puts a new spec under a fresh id from {@code
 * next_catalog_id}, and resetting ends the live one. What the commit records follows stock
 * DuckLake: both partition verbs are table alterations with a {@code schema_versions} record; the
 * sort verbs bump {@code schema_version} and record {@code altered_table} but write no {@code
 * schema_versions} record. The Rust implementation's sort verbs do not bump; RFC 0002 §16 item 8
 * says why the lake follows stock DuckLake here.
 */
public final class PartitionAndSortVerbs {
  private final VerbState s;

  public PartitionAndSortVerbs(VerbState state) {
    this.s = state;
  }

  public long setPartitioning(long tableId, List<PartitionKey> keys) {
    s.requireTable(tableId);
    if (keys == null || keys.isEmpty()) {
      throw new InvalidArgumentException(
          "a partition key needs at least one column; reset it to unpartition the table");
    }
    List<ColumnValue> live = s.columnRecords(tableId);
    // A column may appear under several transforms (year(ts), month(ts)), as stock DuckLake
    // allows; the same transform of a column twice is refused. (The Rust crate's verb refuses a
    // column named twice at all, and reads such a spec alike.)
    Set<PartitionKey> seen = new HashSet<>();
    for (PartitionKey key : keys) {
      if (key == null) {
        throw new InvalidArgumentException("a partition key entry is null");
      }
      VerbState.requireColumn(live, tableId, key.columnId());
      Names.nonEmpty("partition transform", key.transform());
      if (!seen.add(key)) {
        throw new InvalidArgumentException(
            "the partition key names "
                + key.transform()
                + " of column "
                + Long.toUnsignedString(key.columnId())
                + " twice");
      }
    }
    for (PartitionValue p : s.partitionRecords(tableId)) {
      s.staged.delete(new EntityKey.Partition(tableId, p.getPartitionId()));
    }
    long id = s.nextCatalogId++;
    PartitionValue.Builder value =
        PartitionValue.newBuilder()
            .setPartitionId(id)
            .setTableId(tableId)
            .setBeginSnapshot(s.newSnapshotId);
    for (int i = 0; i < keys.size(); i++) {
      value.addColumns(
          PartitionColumn.newBuilder()
              .setPartitionKeyIndex(i)
              .setColumnId(keys.get(i).columnId())
              .setTransform(keys.get(i).transform()));
    }
    s.staged.put(new EntityKey.Partition(tableId, id), value.build());
    s.altered(DuckLakeOperation.SET_PARTITIONED_BY, tableId);
    return id;
  }

  public void resetPartitioning(long tableId) {
    s.requireTable(tableId);
    List<PartitionValue> live = s.partitionRecords(tableId);
    if (live.isEmpty()) {
      throw VerbState.notFound("partition key of table " + Long.toUnsignedString(tableId));
    }
    for (PartitionValue p : live) {
      s.staged.delete(new EntityKey.Partition(tableId, p.getPartitionId()));
    }
    s.altered(DuckLakeOperation.RESET_PARTITIONED_BY, tableId);
  }

  public long setSorting(long tableId, List<SortKey> keys) {
    s.requireTable(tableId);
    if (keys == null || keys.isEmpty()) {
      throw new InvalidArgumentException(
          "a sort key needs at least one expression; reset it to unsort the table");
    }
    for (SortKey key : keys) {
      if (key == null) {
        throw new InvalidArgumentException("a sort key entry is null");
      }
      Names.nonEmpty("sort expression", key.expression());
      Names.nonEmpty("sort dialect", key.dialect());
      Names.nonEmpty("sort direction", key.sortDirection());
      Names.nonEmpty("sort null order", key.nullOrder());
    }
    for (SortValue v : sortRecords(tableId)) {
      s.staged.delete(new EntityKey.Sort(tableId, v.getSortId()));
    }
    long id = s.nextCatalogId++;
    SortValue.Builder value =
        SortValue.newBuilder().setSortId(id).setTableId(tableId).setBeginSnapshot(s.newSnapshotId);
    for (int i = 0; i < keys.size(); i++) {
      SortKey key = keys.get(i);
      value.addExpressions(
          SortExpression.newBuilder()
              .setSortKeyIndex(i)
              .setExpression(key.expression())
              .setDialect(key.dialect())
              .setSortDirection(key.sortDirection())
              .setNullOrder(key.nullOrder()));
    }
    s.staged.put(new EntityKey.Sort(tableId, id), value.build());
    sorted(DuckLakeOperation.SET_SORTED_BY, tableId);
    return id;
  }

  public void resetSorting(long tableId) {
    s.requireTable(tableId);
    List<SortValue> live = sortRecords(tableId);
    if (live.isEmpty()) {
      throw VerbState.notFound("sort key of table " + Long.toUnsignedString(tableId));
    }
    for (SortValue v : live) {
      s.staged.delete(new EntityKey.Sort(tableId, v.getSortId()));
    }
    sorted(DuckLakeOperation.RESET_SORTED_BY, tableId);
  }

  /**
   * A sort change: {@code altered_table}, also for a table this commit created (stock DuckLake
   * writes {@code created_table:...,altered_table:<id>} for CREATE TABLE then SET SORTED BY), no
   * schema record.
   */
  private void sorted(DuckLakeOperation op, long tableId) {
    s.alteredWithoutSchemaRecord(op, tableId);
  }

  private List<SortValue> sortRecords(long tableId) {
    return s.staged.list(
        EntityKind.SORT, tableId, SortValue.class, v -> new EntityKey.Sort(tableId, v.getSortId()));
  }
}
