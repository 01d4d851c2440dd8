package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_sort_expression}: One key of a sort order.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param sortId column sort_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param sortKeyIndex column sort_key_index (BIGINT)
 * @param expression column expression (VARCHAR)
 * @param dialect column dialect (VARCHAR)
 * @param sortDirection column sort_direction (VARCHAR)
 * @param nullOrder column null_order (VARCHAR)
 */
public record SortExpressionRow(
    Long sortId,
    Long tableId,
    Long sortKeyIndex,
    String expression,
    String dialect,
    String sortDirection,
    String nullOrder)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_sort_expression",
          List.of(
              new ColumnDef("sort_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("sort_key_index", SqlType.BIGINT, false, false),
              new ColumnDef("expression", SqlType.VARCHAR, false, false),
              new ColumnDef("dialect", SqlType.VARCHAR, false, false),
              new ColumnDef("sort_direction", SqlType.VARCHAR, false, false),
              new ColumnDef("null_order", SqlType.VARCHAR, false, false)));

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
        sortId, tableId, sortKeyIndex, expression, dialect, sortDirection, nullOrder);
  }
}
