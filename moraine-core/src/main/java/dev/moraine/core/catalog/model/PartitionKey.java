package dev.moraine.core.catalog.model;

/**
 * One key of a partition spec to set: a live column of the table and its transform ({@code
 * identity}, {@code year}, {@code bucket(8)}, ...), stored verbatim and never parsed.
 */
public record PartitionKey(long columnId, String transform) {
  /** An identity partition on the column. */
  public static PartitionKey identity(long columnId) {
    return new PartitionKey(columnId, "identity");
  }
}
