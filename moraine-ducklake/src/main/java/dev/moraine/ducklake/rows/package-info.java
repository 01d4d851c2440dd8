/**
 * The row model of the DuckLake 1.0 metadata tables: one record per table, components in DuckLake's
 * column order, each with its {@link dev.moraine.ducklake.rows.TableDef} (name, column names,
 * types). {@link dev.moraine.ducklake.rows.DuckLakeTables#ALL} lists all 28.
 */
package dev.moraine.ducklake.rows;
