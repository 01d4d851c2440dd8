package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.List;

/**
 * Adding, dropping, renaming and altering columns, and staging a column tree for a new table;
 * {@link Transaction} documents each verb's contract.
 */
public final class ColumnVerbs {
  private final VerbState s;

  public ColumnVerbs(VerbState state) {
    this.s = state;
  }

  public long add(long tableId, ColumnDef def) {
    if (def == null) {
      throw new InvalidArgumentException("column definition must not be null");
    }
    ColumnTrees.validate(List.of(def), "the new column");
    TableValue table = s.requireTable(tableId);
    List<ColumnValue> live = s.columnRecords(tableId);
    siblingNameFree(live, null, def.name(), null);
    long maxId = 0;
    long maxOrder = 0;
    for (ColumnValue c : live) {
      maxId = Math.max(maxId, c.getColumnId());
      maxOrder = Math.max(maxOrder, c.getColumnOrder());
    }
    long[] counters = {Math.max(table.getNextColumnId(), maxId + 1), maxOrder + 1};
    long columnId = stageTree(tableId, def, null, counters);
    // Only next_column_id changes: an in-place overwrite (RFC 0002 §12.1). Stock DuckLake keeps
    // the table's row as it was when a column is added, so its begin snapshot stays.
    s.staged.put(
        new EntityKey.Table(tableId), table.toBuilder().setNextColumnId(counters[0]).build());
    s.altered(DuckLakeOperation.ADD_COLUMN, tableId);
    return columnId;
  }

  public void drop(long tableId, long columnId) {
    s.requireTable(tableId);
    List<ColumnValue> live = s.columnRecords(tableId);
    ColumnValue column = VerbState.requireColumn(live, tableId, columnId);
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
    IndexGuard.refuseColumnChange(
        s, tableId, doomed, "dropColumn of column " + Long.toUnsignedString(columnId));
    // The columns' table column statistics stay: stock DuckLake keeps a dropped column's
    // ducklake_table_column_stats row, as it keeps a dropped table's (RFC 0004 §8.1).
    for (long id : doomed) {
      s.staged.delete(new EntityKey.Column(tableId, id));
    }
    s.altered(DuckLakeOperation.DROP_COLUMN, tableId);
  }

  public void rename(long tableId, long columnId, String newName) {
    Names.nonEmpty("column", newName);
    s.requireTable(tableId);
    List<ColumnValue> live = s.columnRecords(tableId);
    ColumnValue column = VerbState.requireColumn(live, tableId, columnId);
    if (column.getColumnName().equals(newName)) {
      throw new InvalidArgumentException("column '" + newName + "' already has that name");
    }
    siblingNameFree(
        live, column.hasParentColumn() ? column.getParentColumn() : null, newName, columnId);
    s.staged.put(
        new EntityKey.Column(tableId, columnId),
        column.toBuilder().setColumnName(newName).setBeginSnapshot(s.newSnapshotId).build());
    s.altered(DuckLakeOperation.RENAME_COLUMN, tableId);
  }

  public void changeType(long tableId, long columnId, String type) {
    s.requireTable(tableId);
    List<ColumnValue> live = s.columnRecords(tableId);
    ColumnValue column = VerbState.requireColumn(live, tableId, columnId);
    IndexGuard.refuseColumnChange(
        s,
        tableId,
        List.of(columnId),
        "changeColumnType of column " + Long.toUnsignedString(columnId));
    ColumnDef probe = ColumnDef.of(column.getColumnName(), type);
    ColumnTrees.validate(List.of(probe), "the column");
    boolean hasFields =
        live.stream().anyMatch(c -> c.hasParentColumn() && c.getParentColumn() == columnId);
    if (hasFields || ColumnTrees.isNestedType(column.getColumnType())) {
      throw new InvalidArgumentException("the type of a nested column cannot be changed");
    }
    alter(column, column.toBuilder().setColumnType(ColumnTrees.storedType(probe)).build());
    s.altered(DuckLakeOperation.CHANGE_COLUMN_TYPE, tableId);
  }

  public void setDefault(long tableId, long columnId, String value) {
    s.requireTable(tableId);
    ColumnValue column = VerbState.requireColumn(s.columnRecords(tableId), tableId, columnId);
    ColumnValue.Builder next = column.toBuilder();
    // Stock DuckLake writes a dropped default as the literal text NULL, not as an absent value.
    next.setDefaultValue(value == null ? "NULL" : value);
    alter(column, next.build());
    s.altered(
        value == null ? DuckLakeOperation.DROP_DEFAULT : DuckLakeOperation.SET_DEFAULT, tableId);
  }

  public void setNullable(long tableId, long columnId, boolean nullsAllowed) {
    s.requireTable(tableId);
    ColumnValue column = VerbState.requireColumn(s.columnRecords(tableId), tableId, columnId);
    alter(column, column.toBuilder().setNullsAllowed(nullsAllowed).build());
    s.altered(
        nullsAllowed ? DuckLakeOperation.DROP_NOT_NULL : DuckLakeOperation.SET_NOT_NULL, tableId);
  }

  /** Stages one column and, in pre-order, its fields; returns the column's id. */
  long stageTree(long tableId, ColumnDef def, Long parent, long[] counters) {
    long id = counters[0]++;
    long order = counters[1]++;
    ColumnValue.Builder b =
        ColumnValue.newBuilder()
            .setColumnId(id)
            .setBeginSnapshot(s.newSnapshotId)
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
    s.staged.put(new EntityKey.Column(tableId, id), b.build());
    for (ColumnDef child : def.children()) {
      stageTree(tableId, child, id, counters);
    }
    return id;
  }

  private void alter(ColumnValue column, ColumnValue next) {
    s.staged.put(
        new EntityKey.Column(column.getTableId(), column.getColumnId()),
        next.toBuilder().setBeginSnapshot(s.newSnapshotId).build());
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
}
