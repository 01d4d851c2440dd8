package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.SortExpression;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import dev.moraine.ducklake.rows.SortExpressionRow;
import dev.moraine.ducklake.rows.SortInfoRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The staged-row door's sort keys (RFC 0006 §13): {@code ALTER TABLE ... SET SORTED BY} as DuckLake
 * writes it, a {@code ducklake_sort_info} insert with its {@code ducklake_sort_expression} rows
 * (the id drawn from the commit's range of {@code next_catalog_id}) and the end of the sort key it
 * replaces; {@code RESET SORTED BY}, the end alone (stock draws no id for it); and the end DROP
 * TABLE and a rename of a sorted column write (the latter with a new key naming the new name). The
 * records are the verb path's: one sort record holding its expressions, and a live table has at
 * most one. Confined to the thread running the translation.
 */
final class StagedSorting {
  private final StagedEntities staged;
  private final long n;

  /** Table id -> whether the commit gives it a new sort key (else it only ends one). */
  private final Map<Long, Boolean> tables = new TreeMap<>(Long::compareUnsigned);

  StagedSorting(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /**
   * Ends the live sort keys {@code ends} name, then sets the new ones {@code infos} with their
   * expressions {@code expressions}, each of a live table.
   */
  void apply(
      List<StagedRows.End> ends,
      List<SortInfoRow> infos,
      List<SortExpressionRow> expressions,
      SnapshotValue premiseRecord,
      SnapshotValue record) {
    Set<Long> endedIds = new HashSet<>();
    for (StagedRows.End e : ends) {
      SortInfoRow r = (SortInfoRow) e.row();
      long tableId = required(r.tableId(), r, "table_id");
      long id = required(r.sortId(), r, "sort_id");
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      EntityKey key = new EntityKey.Sort(tableId, id);
      SortValue live = staged.get(key, SortValue.class).orElse(null);
      if (!endedIds.add(id)
          || e.endSnapshot() != n
          || live == null
          || !Long.valueOf(live.getBeginSnapshot()).equals(r.beginSnapshot())) {
        throw new InvalidArgumentException(
            "an end of ducklake_sort_info row "
                + Long.toUnsignedString(id)
                + " is not of a live sort key the lake holds, at "
                + n
                + ", or is given twice");
      }
      staged.delete(key);
      tables.putIfAbsent(tableId, false);
    }
    Map<List<Long>, List<SortExpressionRow>> bySort = new HashMap<>();
    for (SortExpressionRow x : expressions) {
      bySort
          .computeIfAbsent(
              List.of(required(x.tableId(), x, "table_id"), required(x.sortId(), x, "sort_id")),
              k -> new ArrayList<>())
          .add(x);
    }
    for (SortInfoRow r : infos) {
      long tableId = required(r.tableId(), r, "table_id");
      long id = required(r.sortId(), r, "sort_id");
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      if (Boolean.TRUE.equals(tables.get(tableId))
          || required(r.beginSnapshot(), r, "begin_snapshot") != n
          || !StagedRowChecks.drawn(id, premiseRecord, record)) {
        throw new InvalidArgumentException(
            "ducklake_sort_info row "
                + Long.toUnsignedString(id)
                + " of table "
                + Long.toUnsignedString(tableId)
                + ": one a table, begun at "
                + n
                + ", its id in this commit's range of next_catalog_id");
      }
      if (staged.get(new EntityKey.Table(tableId), TableValue.class).isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "the commit's ducklake_sort_info rows name table "
                + Long.toUnsignedString(tableId)
                + ", which is not live");
      }
      if (!staged
          .list(
              EntityKind.SORT,
              tableId,
              SortValue.class,
              v -> new EntityKey.Sort(tableId, v.getSortId()))
          .isEmpty()) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(tableId)
                + " gets a sort key while its live one is not ended in the same commit");
      }
      List<SortExpressionRow> keys =
          new ArrayList<>(bySort.getOrDefault(List.of(tableId, id), List.of()));
      bySort.remove(List.of(tableId, id));
      if (keys.isEmpty()) {
        throw new InvalidArgumentException(
            "ducklake_sort_info row "
                + Long.toUnsignedString(id)
                + " of table "
                + Long.toUnsignedString(tableId)
                + " has no ducklake_sort_expression rows");
      }
      keys.sort(
          Comparator.comparing(
              SortExpressionRow::sortKeyIndex, Comparator.nullsFirst(Comparator.naturalOrder())));
      SortValue.Builder value =
          SortValue.newBuilder().setSortId(id).setTableId(tableId).setBeginSnapshot(n);
      for (int k = 0; k < keys.size(); k++) {
        SortExpressionRow x = keys.get(k);
        if (required(x.sortKeyIndex(), x, "sort_key_index") != k) {
          throw new InvalidArgumentException(
              "sort key " + k + " of table " + Long.toUnsignedString(tableId) + " is missing");
        }
        value.addExpressions(
            SortExpression.newBuilder()
                .setSortKeyIndex(k)
                .setExpression(required(x.expression(), x, "expression"))
                .setDialect(required(x.dialect(), x, "dialect"))
                .setSortDirection(required(x.sortDirection(), x, "sort_direction"))
                .setNullOrder(required(x.nullOrder(), x, "null_order")));
      }
      staged.put(new EntityKey.Sort(tableId, id), value.build());
      tables.put(tableId, true);
    }
    if (!bySort.isEmpty()) {
      throw new InvalidArgumentException(
          "ducklake_sort_expression rows name sort keys "
              + bySort.keySet()
              + " (table, sort) this commit does not create");
    }
  }

  /**
   * The operations the commit path counts for the schema version: one per table left live whose
   * sort key the commit sets or resets (a drop counts for itself).
   */
  List<DuckLakeOperation> operations() {
    List<DuckLakeOperation> ops = new ArrayList<>();
    tables.forEach(
        (tableId, set) -> {
          if (staged.get(new EntityKey.Table(tableId), TableValue.class).isPresent()) {
            ops.add(set ? DuckLakeOperation.SET_SORTED_BY : DuckLakeOperation.RESET_SORTED_BY);
          }
        });
    return ops;
  }
}
