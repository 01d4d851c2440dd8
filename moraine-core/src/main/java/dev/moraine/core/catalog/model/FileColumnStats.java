package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;

/** A column's statistics within one data file ({@code ducklake_file_column_stats}). */
public record FileColumnStats(
    long tableId,
    long dataFileId,
    long columnId,
    long columnSizeBytes,
    long valueCount,
    long nullCount,
    Optional<String> minValue,
    Optional<String> maxValue,
    Optional<Boolean> containsNan,
    Optional<String> extraStats,
    List<VariantStats> variantStats) {
  public FileColumnStats {
    variantStats = List.copyOf(variantStats);
  }

  /** Statistics of one shredded path of a variant column. */
  public record VariantStats(
      String variantPath,
      String shreddedType,
      long columnSizeBytes,
      long valueCount,
      long nullCount,
      Optional<String> minValue,
      Optional<String> maxValue,
      Optional<Boolean> containsNan,
      Optional<String> extraStats) {}
}
