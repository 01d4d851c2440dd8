package dev.moraine.core.catalog.model;

/** Where an option ({@code ducklake_metadata}) is set: the whole lake, a schema, or a table. */
public sealed interface OptionScope {
  /** The lake-wide scope. */
  record Global() implements OptionScope {}

  /** The options of one schema. */
  record Schema(long schemaId) implements OptionScope {}

  /** The options of one table. */
  record Table(long tableId) implements OptionScope {}

  /** The lake-wide scope. */
  static OptionScope global() {
    return new Global();
  }
}
