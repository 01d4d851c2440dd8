package dev.moraine.core.catalog.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One column's statistics within a data file being registered, as {@code
 * ducklake_file_column_stats} holds them: {@code valueCount} counts the column's non-null values
 * and {@code nullCount} its nulls (a Parquet footer's value count includes the nulls).
 */
public record NewFileColumnStats(
    long columnId,
    long columnSizeBytes,
    long valueCount,
    long nullCount,
    Optional<String> minValue,
    Optional<String> maxValue,
    Optional<Boolean> containsNan,
    Optional<String> extraStats) {
  public NewFileColumnStats {
    Objects.requireNonNull(minValue, "minValue");
    Objects.requireNonNull(maxValue, "maxValue");
    Objects.requireNonNull(containsNan, "containsNan");
    Objects.requireNonNull(extraStats, "extraStats");
  }

  /** Counts and bounds, without a NaN flag or extra statistics. */
  public static NewFileColumnStats of(
      long columnId, long sizeBytes, long valueCount, long nullCount, String min, String max) {
    return new NewFileColumnStats(
        columnId,
        sizeBytes,
        valueCount,
        nullCount,
        Optional.ofNullable(min),
        Optional.ofNullable(max),
        Optional.empty(),
        Optional.empty());
  }
}
