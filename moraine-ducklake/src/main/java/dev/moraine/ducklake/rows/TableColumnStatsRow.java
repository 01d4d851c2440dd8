package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_table_column_stats}: Running statistics of one column of a table.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param tableId column table_id (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param containsNull column contains_null (BOOLEAN)
 * @param containsNan column contains_nan (BOOLEAN)
 * @param minValue column min_value (VARCHAR)
 * @param maxValue column max_value (VARCHAR)
 * @param extraStats column extra_stats (VARCHAR)
 */
public record TableColumnStatsRow(
    Long tableId,
    Long columnId,
    Boolean containsNull,
    Boolean containsNan,
    String minValue,
    String maxValue,
    String extraStats)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_table_column_stats",
          List.of(
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("contains_null", SqlType.BOOLEAN, false, false),
              new ColumnDef("contains_nan", SqlType.BOOLEAN, false, false),
              new ColumnDef("min_value", SqlType.VARCHAR, false, false),
              new ColumnDef("max_value", SqlType.VARCHAR, false, false),
              new ColumnDef("extra_stats", SqlType.VARCHAR, false, false)));

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
        tableId, columnId, containsNull, containsNan, minValue, maxValue, extraStats);
  }
}
