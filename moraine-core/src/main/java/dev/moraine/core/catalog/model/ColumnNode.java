package dev.moraine.core.catalog.model;

import java.util.List;

/** A column with its nested fields, in column order: one node of a table's column tree. */
public record ColumnNode(ColumnInfo column, List<ColumnNode> children) {
  public ColumnNode {
    children = List.copyOf(children);
  }
}
