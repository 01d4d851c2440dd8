package dev.moraine.core.catalog.model;

/**
 * One {@code ducklake_schema_versions} row: the table or view whose shape changed at {@code
 * beginSnapshot}, and the catalog's schema version from then on.
 */
public record SchemaVersionInfo(long tableId, long beginSnapshot, long schemaVersion) {
  /**
   * The snapshot a table's schema version {@code version} began at, from its records {@code
   * versions} (ascending): that of the record of the version, or of the newest one below it (a
   * version the Rust crate inlined under without a record of its own); 0 when there is none.
   */
  public static long beginOf(java.util.List<SchemaVersionInfo> versions, long version) {
    long begin = 0;
    for (SchemaVersionInfo v : versions) {
      if (Long.compareUnsigned(v.schemaVersion(), version) <= 0) {
        begin = v.beginSnapshot();
      }
    }
    return begin;
  }
}
