/**
 * The reference DuckLake: real DuckDB (through {@code duckdb_jdbc}) with the real DuckLake
 * extension, run in-process so that tests can compare what Moraine writes with what stock DuckLake
 * writes.
 *
 * <p>{@link dev.moraine.duckdb.reference.ReferenceDuckLake} attaches a lake with a DuckDB-file
 * metadata catalog in a folder, runs SQL on several connections (each its own transaction), and
 * reads back the {@code ducklake_*} rows. {@link dev.moraine.duckdb.reference.DuckLakeExtension}
 * finds the extension binary the build fetched. See {@code docs/duckdb-reference.md}.
 */
package dev.moraine.duckdb.reference;
