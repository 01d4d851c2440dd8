package dev.moraine.core.catalog.model;

/** What a tag or comment is set on: a table, a view, or a column of a table. */
public sealed interface TagTarget {
  /** A table ({@code ducklake_tag}, keyed by the table's id). */
  record Table(long tableId) implements TagTarget {}

  /** A view ({@code ducklake_tag}, keyed by the view's id). */
  record View(long viewId) implements TagTarget {}

  /** A column, nested fields included ({@code ducklake_column_tag}). */
  record Column(long tableId, long columnId) implements TagTarget {}
}
