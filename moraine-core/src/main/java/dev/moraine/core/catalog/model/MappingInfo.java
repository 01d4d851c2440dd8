package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.OptionalLong;

/** A column mapping ({@code ducklake_column_mapping} with its name mappings). */
public record MappingInfo(
    long tableId, long mappingId, String mapType, List<NameMapping> nameMappings) {
  public MappingInfo {
    nameMappings = List.copyOf(nameMappings);
  }

  /** One name mapping ({@code ducklake_name_mapping}). */
  public record NameMapping(
      long columnId,
      String sourceName,
      long targetFieldId,
      OptionalLong parentColumn,
      boolean isPartition) {}
}
