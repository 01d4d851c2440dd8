package dev.moraine.duckdb.reference;

/**
 * One snapshot of a stock DuckLake catalog: its {@code ducklake_snapshot} row joined with its
 * {@code ducklake_snapshot_changes} row.
 *
 * @param snapshotId snapshot_id
 * @param schemaVersion schema_version
 * @param nextCatalogId next_catalog_id
 * @param nextFileId next_file_id
 * @param changesMade changes_made as DuckLake wrote it, or null when it wrote SQL NULL
 * @param author author, or null
 * @param commitMessage commit_message, or null
 */
public record ReferenceSnapshot(
    long snapshotId,
    long schemaVersion,
    long nextCatalogId,
    long nextFileId,
    String changesMade,
    String author,
    String commitMessage) {}
