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
 */
public record InlinedSchemaVersion(
    long tableId,
    long schemaVersion,
    java.util.List<String> columns,
    java.util.OptionalLong firstChunkBegin) {
  /** Copies the column list. */
  public InlinedSchemaVersion {
    columns = java.util.List.copyOf(columns);
  }
}
