package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A live data file ({@code ducklake_data_file}) at a snapshot. Its rows have ids {@code rowIdStart}
 * to {@code rowIdStart + recordCount - 1}.
 */
public record DataFileInfo(
    long tableId,
    long dataFileId,
    long beginSnapshot,
    OptionalLong fileOrder,
    String path,
    boolean pathIsRelative,
    String fileFormat,
    long recordCount,
    long fileSizeBytes,
    long footerSize,
    OptionalLong rowIdStart,
    OptionalLong partitionId,
    Optional<String> encryptionKey,
    OptionalLong mappingId,
    OptionalLong partialMax,
    List<PartitionValue> partitionValues) {
  public DataFileInfo {
    partitionValues = List.copyOf(partitionValues);
  }

  /** The value of one partition key for this file. */
  public record PartitionValue(long partitionKeyIndex, String value) {}
}
