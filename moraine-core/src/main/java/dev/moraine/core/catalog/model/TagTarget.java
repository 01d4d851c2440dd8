package dev.moraine.core.catalog.model;

/** What a tag or comment is set on: a schema, a table, a view, or a column of a table. */
public sealed interface TagTarget {
  /**
   * A schema ({@code ducklake_tag}, keyed by the schema's id). Stock DuckLake 1.5.5 has no schema
   * comments; these are the Rust implementation's schema tags.
   */
  record Schema(long schemaId) implements TagTarget {}

  /** A table ({@code ducklake_tag}, keyed by the table's id). */
  record Table(long tableId) implements TagTarget {}

  /** A view ({@code ducklake_tag}, keyed by the view's id). */
  record View(long viewId) implements TagTarget {}

  /** A column, nested fields included ({@code ducklake_column_tag}). */
  record Column(long tableId, long columnId) implements TagTarget {}
}
