package dev.moraine.core.catalog.model;

import java.util.List;

/** A table's sort key ({@code ducklake_sort_info} and its expressions) at a snapshot. */
public record SortSpec(
    long tableId, long sortId, long beginSnapshot, List<Expression> expressions) {
  public SortSpec {
    expressions = List.copyOf(expressions);
  }

  /** One sort expression. */
  public record Expression(
      long sortKeyIndex,
      String expression,
      String dialect,
      String sortDirection,
      String nullOrder) {}
}
