package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A data file to register: where it is, its format, its row count, sizes, per-column statistics
 * and, for a partitioned table, one value per key of the table's live partition spec in key order.
 * Its row ids are not given: the commit allocates them from the table's next row id.
 */
public record NewDataFile(
    String path,
    boolean pathIsRelative,
    String fileFormat,
    long recordCount,
    long fileSizeBytes,
    long footerSize,
    Optional<String> encryptionKey,
    List<NewFileColumnStats> columnStats,
    List<String> partitionValues) {
  public NewDataFile {
    Objects.requireNonNull(encryptionKey, "encryptionKey");
    columnStats = List.copyOf(Objects.requireNonNull(columnStats, "columnStats"));
    partitionValues = List.copyOf(Objects.requireNonNull(partitionValues, "partitionValues"));
  }

  /** An unpartitioned, unencrypted Parquet file at a path relative to its table, without stats. */
  public static NewDataFile parquet(
      String relativePath, long recordCount, long fileSizeBytes, long footerSize) {
    return new NewDataFile(
        relativePath,
        true,
        "parquet",
        recordCount,
        fileSizeBytes,
        footerSize,
        Optional.empty(),
        List.of(),
        List.of());
  }

  /** This file with the given column statistics. */
  public NewDataFile withColumnStats(List<NewFileColumnStats> stats) {
    return new NewDataFile(
        path,
        pathIsRelative,
        fileFormat,
        recordCount,
        fileSizeBytes,
        footerSize,
        encryptionKey,
        stats,
        partitionValues);
  }

  /** This file with the given partition values. */
  public NewDataFile withPartitionValues(List<String> values) {
    return new NewDataFile(
        path,
        pathIsRelative,
        fileFormat,
        recordCount,
        fileSizeBytes,
        footerSize,
        encryptionKey,
        columnStats,
        values);
  }
}
