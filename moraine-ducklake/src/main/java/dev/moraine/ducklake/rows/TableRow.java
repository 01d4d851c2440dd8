package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code ducklake_table}: One version of a table (a rename closes the old row and opens a
 * new one).
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param tableId column table_id (BIGINT)
 * @param tableUuid column table_uuid (UUID)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param schemaId column schema_id (BIGINT)
 * @param tableName column table_name (VARCHAR)
 * @param path column path (VARCHAR)
 * @param pathIsRelative column path_is_relative (BOOLEAN)
 */
public record TableRow(
    Long tableId,
    UUID tableUuid,
    Long beginSnapshot,
    Long endSnapshot,
    Long schemaId,
    String tableName,
    String path,
    Boolean pathIsRelative)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_table",
          List.of(
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_uuid", SqlType.UUID, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("schema_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_name", SqlType.VARCHAR, false, false),
              new ColumnDef("path", SqlType.VARCHAR, false, false),
              new ColumnDef("path_is_relative", SqlType.BOOLEAN, false, false)));

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
    return Arrays.asList(
        tableId, tableUuid, beginSnapshot, endSnapshot, schemaId, tableName, path, pathIsRelative);
  }
}
