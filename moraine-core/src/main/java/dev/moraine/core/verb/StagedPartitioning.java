package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.PartitionColumn;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.ducklake.rows.PartitionColumnRow;
import dev.moraine.ducklake.rows.PartitionInfoRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's partitioning of a live table (RFC 0006 §4.5, §13): ALTER TABLE ... SET
 * PARTITIONED BY as DuckLake writes it, a {@code ducklake_partition_info} insert with its {@code
 * ducklake_partition_column} rows (the id drawn from the commit's range of {@code
 * next_catalog_id}), the end of the partitioning it replaces, and the table's {@code
 * ducklake_schema_versions} row. The records are those the verb path writes (one partition record
 * holding its columns), and the table counts as altered: a schema change. RESET PARTITIONED BY,
 * which stock 1.5.5 writes as the end of the live partitioning and a new {@code
 * ducklake_partition_info} row without columns (its id drawn from the counter, files written after
 * it carrying no partition id), is taken as the verb path's reset: the live record ends and no
 * record is kept for the column-less row, whose id stays drawn (the snapshot's {@code
 * next_catalog_id} is stored as given). RFC 0004 §8.2 item 4 says why the keyspace keeps no empty
 * partitioning. Confined to the thread running the translation.
 */
final class StagedPartitioning {
  private final StagedEntities staged;
  private final long n;

  StagedPartitioning(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /**
   * The tables whose partitioning {@code infos} and {@code ends} change (of tables not dropped).
   */
  static Set<Long> tablesOf(List<PartitionInfoRow> infos, List<StagedRows.End> ends) {
    Set<Long> out = new HashSet<>();
    infos.forEach(i -> out.add(i.tableId()));
    ends.forEach(e -> out.add(((PartitionInfoRow) e.row()).tableId()));
    return out;
  }

  /**
   * Ends the live partitionings {@code ends} name, then sets the new ones {@code infos} with their
   * columns {@code columns}, each of a live table.
   */
  void apply(
      List<StagedRows.End> ends,
      List<PartitionInfoRow> infos,
      List<PartitionColumnRow> columns,
      SnapshotValue premiseRecord,
      SnapshotValue record) {
    Set<List<Long>> seen = new HashSet<>();
    Set<Long> endedTables = new HashSet<>();
    for (StagedRows.End e : ends) {
      PartitionInfoRow r = (PartitionInfoRow) e.row();
      long tableId = required(r.tableId(), r, "table_id");
      long id = required(r.partitionId(), r, "partition_id");
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      EntityKey key = new EntityKey.Partition(tableId, id);
      PartitionValue live = staged.get(key, PartitionValue.class).orElse(null);
      if (!seen.add(List.of(0L, tableId, id))
          || e.endSnapshot() != n
          || live == null
          || !Long.valueOf(live.getBeginSnapshot()).equals(r.beginSnapshot())) {
        throw new InvalidArgumentException(
            "an end of ducklake_partition_info row "
                + Long.toUnsignedString(id)
                + " is not of a live partitioning the lake holds, at "
                + n);
      }
      staged.delete(key);
      endedTables.add(tableId);
    }
    Map<List<Long>, List<PartitionColumnRow>> byPartition = new HashMap<>();
    for (PartitionColumnRow c : columns) {
      byPartition
          .computeIfAbsent(
              List.of(
                  required(c.tableId(), c, "table_id"),
                  required(c.partitionId(), c, "partition_id")),
              k -> new ArrayList<>())
          .add(c);
    }
    for (PartitionInfoRow r : infos) {
      long tableId = required(r.tableId(), r, "table_id");
      long id = required(r.partitionId(), r, "partition_id");
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      if (!seen.add(List.of(1L, tableId))
          || required(r.beginSnapshot(), r, "begin_snapshot") != n
          || !StagedRowChecks.drawn(id, premiseRecord, record)) {
        throw new InvalidArgumentException(
            "ducklake_partition_info row "
                + Long.toUnsignedString(id)
                + " of table "
                + Long.toUnsignedString(tableId)
                + ": one a table, begun at "
                + n
                + ", its id in this commit's range of next_catalog_id");
      }
      if (!staged
          .list(
              dev.moraine.core.keyspace.key.EntityKind.PARTITION,
              tableId,
              PartitionValue.class,
              p -> new EntityKey.Partition(tableId, p.getPartitionId()))
          .isEmpty()) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(tableId)
                + " gets a partitioning while its live one is not ended in the same commit");
      }
      List<PartitionColumnRow> keys =
          new ArrayList<>(byPartition.getOrDefault(List.of(tableId, id), List.of()));
      byPartition.remove(List.of(tableId, id));
      if (keys.isEmpty()) {
        // RESET PARTITIONED BY: the live partitioning ended above, nothing kept for this row.
        if (!endedTables.contains(tableId)) {
          throw new InvalidArgumentException(
              "ducklake_partition_info row "
                  + Long.toUnsignedString(id)
                  + " of table "
                  + Long.toUnsignedString(tableId)
                  + " has no ducklake_partition_column rows and ends no partitioning: DuckLake"
                  + " writes a partitioning without columns only to reset a live one");
        }
        continue;
      }
      keys.sort(Comparator.comparing(PartitionColumnRow::partitionKeyIndex));
      Set<Long> live = new HashSet<>();
      for (ColumnValue c :
          staged.list(
              dev.moraine.core.keyspace.key.EntityKind.COLUMN,
              tableId,
              ColumnValue.class,
              c -> new EntityKey.Column(tableId, c.getColumnId()))) {
        live.add(c.getColumnId());
      }
      PartitionValue.Builder value =
          PartitionValue.newBuilder().setPartitionId(id).setTableId(tableId).setBeginSnapshot(n);
      for (int k = 0; k < keys.size(); k++) {
        PartitionColumnRow c = keys.get(k);
        long columnId = required(c.columnId(), c, "column_id");
        if (required(c.partitionKeyIndex(), c, "partition_key_index") != k
            || !live.contains(columnId)) {
          throw new InvalidArgumentException(
              "partition key "
                  + k
                  + " of table "
                  + Long.toUnsignedString(tableId)
                  + " is missing, or names column "
                  + Long.toUnsignedString(columnId)
                  + ", which the table does not have live");
        }
        value.addColumns(
            PartitionColumn.newBuilder()
                .setPartitionKeyIndex(k)
                .setColumnId(columnId)
                .setTransform(required(c.transform(), c, "transform")));
      }
      staged.put(new EntityKey.Partition(tableId, id), value.build());
    }
    for (StagedRows.End e : ends) {
      long tableId = ((PartitionInfoRow) e.row()).tableId();
      if (!seen.contains(List.of(1L, tableId))) {
        throw new InvalidArgumentException(
            "the partitioning of table "
                + Long.toUnsignedString(tableId)
                + " ends without a new one (DuckLake's RESET PARTITIONED BY writes one without"
                + " columns)");
      }
    }
    if (!byPartition.isEmpty()) {
      throw new InvalidArgumentException(
          "ducklake_partition_column rows name partitions "
              + byPartition.keySet()
              + " (table, partition) this commit does not create");
    }
  }
}
