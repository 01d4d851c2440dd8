package dev.moraine.ducklake.ops;

/** The catalog-level side effects an operation may have; see {@link DuckLakeOperation}. */
public enum Effect {
  /**
   * The commit's {@code schema_version} is one more than its premise's (DuckLake bumps at most once
   * per commit for this).
   */
  BUMPS_SCHEMA_VERSION,
  /**
   * An extra {@code schema_version} increment on top of {@link #BUMPS_SCHEMA_VERSION}: DuckLake
   * adds one per table whose inlined insert has to create that table's first inlined-data table.
   */
  EXTRA_SCHEMA_VERSION_PER_TABLE,
  /**
   * A {@code ducklake_schema_versions(begin_snapshot, schema_version, table_id)} row is written for
   * the table.
   */
  WRITES_SCHEMA_VERSIONS_ROW,
  /**
   * {@code next_file_id} advances (data files, delete files, name mappings, or the inlined-only
   * marker).
   */
  ADVANCES_NEXT_FILE_ID,
  /** {@code next_catalog_id} advances (schemas, tables, views, macros, partition and sort ids). */
  ADVANCES_NEXT_CATALOG_ID,
  /**
   * No snapshot is minted: the change is written immediately, unversioned, with no changes_made
   * entry.
   */
  OUTSIDE_SNAPSHOT_PROTOCOL,
  /** Compaction: DuckLake refuses to commit it together with any other kind of change. */
  EXCLUSIVE_COMPACTION
}
