/**
 * DuckLake 1.0 column type names ({@link dev.moraine.ducklake.types.DuckLakeType}): parsing and
 * formatting of {@code ducklake_column.column_type}.
 */
package dev.moraine.ducklake.types;
