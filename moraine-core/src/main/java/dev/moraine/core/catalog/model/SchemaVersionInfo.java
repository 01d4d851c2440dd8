package dev.moraine.core.catalog.model;

/**
 * One {@code ducklake_schema_versions} row: the table or view whose shape changed at {@code
 * beginSnapshot}, and the catalog's schema version from then on.
 */
public record SchemaVersionInfo(long tableId, long beginSnapshot, long schemaVersion) {}
