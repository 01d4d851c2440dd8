package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A column ({@code ducklake_column}) as it stands at a snapshot. A field of a nested type (struct,
 * list, map) is a column of its own whose {@code parentColumn} names its parent; {@code
 * columnOrder} orders siblings. {@code tags} are the column's tags live at the snapshot.
 */
public record ColumnInfo(
    long tableId,
    long columnId,
    long beginSnapshot,
    long columnOrder,
    String name,
    String type,
    Optional<String> initialDefault,
    Optional<String> defaultValue,
    boolean nullsAllowed,
    OptionalLong parentColumn,
    Optional<String> defaultValueType,
    Optional<String> defaultValueDialect,
    List<TagEntry> tags) {
  public ColumnInfo {
    tags = List.copyOf(tags);
  }
}
