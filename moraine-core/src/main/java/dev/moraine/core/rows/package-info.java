/**
 * A catalog snapshot as the rows of DuckLake's spec-1.0 metadata tables: {@link
 * dev.moraine.core.rows.DuckLakeRowRenderer#render} gives every {@code ducklake_*} table's rows,
 * and the inlined-data tables, as stock DuckLake would hold them right after the snapshot; {@link
 * dev.moraine.core.rows.RowMappings} is the field-by-field mapping of each read-model record. The
 * derivation of each table and what cannot be reproduced are in docs/ducklake-format.md.
 */
package dev.moraine.core.rows;
