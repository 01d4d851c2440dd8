/**
 * Export of a Moraine lake's catalog as a stock DuckLake 1.0 catalog in a DuckDB database file, so
 * that DuckDB with its DuckLake extension reads the lake: {@link
 * dev.moraine.duckdb.export.DuckLakeExport} writes every snapshot up to the one asked for, and
 * brings an earlier export of the same lake forward by applying only what changed since.
 */
package dev.moraine.duckdb.export;
