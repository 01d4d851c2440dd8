package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_schema_versions}: Which schema version began at which snapshot, and for
 * which table.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param schemaVersion column schema_version (BIGINT)
 * @param tableId column table_id (BIGINT)
 */
public record SchemaVersionsRow(Long beginSnapshot, Long schemaVersion, Long tableId)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_schema_versions",
          List.of(
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("schema_version", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(beginSnapshot, schemaVersion, tableId);
  }
}
