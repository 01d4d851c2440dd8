package dev.moraine.core.catalog.model;

import java.util.List;

/** A table's partitioning ({@code ducklake_partition_info} and its columns) at a snapshot. */
public record PartitionSpec(
    long tableId, long partitionId, long beginSnapshot, List<Column> columns) {
  public PartitionSpec {
    columns = List.copyOf(columns);
  }

  /** One partition key: which column, transformed how. */
  public record Column(long partitionKeyIndex, long columnId, String transform) {}
}
