package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_column_tag}: A tag (such as a comment) on a column.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param tableId column table_id (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param key column key (VARCHAR)
 * @param value column value (VARCHAR)
 */
public record ColumnTagRow(
    Long tableId, Long columnId, Long beginSnapshot, Long endSnapshot, String key, String value)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_column_tag",
          List.of(
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("key", SqlType.VARCHAR, false, false),
              new ColumnDef("value", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(tableId, columnId, beginSnapshot, endSnapshot, key, value);
  }
}
