package dev.moraine.core.catalog.model;

/**
 * One registered inlined-data table, {@code ducklake_inlined_data_<tableId>_<schemaVersion>}: an
 * Arrow schema record of the table at that schema version whose version has not been dropped by a
 * flush (RFC 0002 §5.4, §9).
 *
 * @param tableId the table
 * @param schemaVersion the schema version the inlined rows were written under
 * @param columns the names of the table's columns at that version, from the Arrow schema record
 * @param firstChunkBegin the begin snapshot of the earliest insert chunk still stored under this
 *     version; empty when none is (a flush moved them all to a file)
 * @param fields the Arrow fields of those columns, as the schema record holds them (each carries
 *     its column id as {@code PARQUET:field_id}); one per column
 */
public record InlinedSchemaVersion(
    long tableId,
    long schemaVersion,
    java.util.List<String> columns,
    java.util.OptionalLong firstChunkBegin,
    java.util.List<org.apache.arrow.vector.types.pojo.Field> fields) {
  /**
   * Copies both lists.
   *
   * @throws IllegalArgumentException if there are not as many fields as columns
   */
  public InlinedSchemaVersion {
    columns = java.util.List.copyOf(columns);
    fields = java.util.List.copyOf(fields);
    if (fields.size() != columns.size()) {
      throw new IllegalArgumentException(
          fields.size() + " fields for " + columns.size() + " columns");
    }
  }
}
