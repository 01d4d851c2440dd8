/**
 * The {@code changes_made} grammar of DuckLake 1.0: a typed model of change entries ({@link
 * dev.moraine.ducklake.changes.ChangeKind}, {@link dev.moraine.ducklake.changes.ChangeEntry},
 * {@link dev.moraine.ducklake.changes.ChangeSet}) and the text codec ({@link
 * dev.moraine.ducklake.changes.ChangesMade}).
 *
 * <p>Value shapes by kind: {@code created_schema} carries one quoted schema name; the {@code
 * created_table}, {@code created_view}, {@code created_scalar_macro} and {@code
 * created_table_macro} kinds carry {@code "schema"."name"}; every other kind carries a decimal id
 * (schema id for {@code dropped_schema}, macro id for the dropped macro kinds, view id for the view
 * kinds, table id otherwise).
 */
package dev.moraine.ducklake.changes;
