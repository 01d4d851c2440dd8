package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_column_mapping}: A column mapping attached to imported data files.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param mappingId column mapping_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param type column type (VARCHAR)
 */
public record ColumnMappingRow(Long mappingId, Long tableId, String type) implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_column_mapping",
          List.of(
              new ColumnDef("mapping_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("type", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(mappingId, tableId, type);
  }
}
