package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_inlined_data_tables}: Registry of the per-table, per-schema-version
 * inlined data tables.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param tableId column table_id (BIGINT)
 * @param tableName column table_name (VARCHAR)
 * @param schemaVersion column schema_version (BIGINT)
 */
public record InlinedDataTablesRow(Long tableId, String tableName, Long schemaVersion)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_inlined_data_tables",
          List.of(
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_name", SqlType.VARCHAR, false, false),
              new ColumnDef("schema_version", SqlType.BIGINT, false, false)));

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
    return Arrays.asList(tableId, tableName, schemaVersion);
  }
}
