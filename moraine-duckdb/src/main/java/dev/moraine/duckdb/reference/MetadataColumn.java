package dev.moraine.duckdb.reference;

/**
 * One column of a metadata table as DuckDB describes it ({@code DESCRIBE}).
 *
 * @param name column_name
 * @param type column_type as DuckDB spells it, e.g. {@code BIGINT}, {@code TIMESTAMP WITH TIME
 *     ZONE}
 * @param nullable false when the column is NOT NULL (primary-key columns included)
 * @param primaryKey true when the column is the primary key
 */
public record MetadataColumn(String name, String type, boolean nullable, boolean primaryKey) {}
