package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_sort_info}: One sort order of a table.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param sortId column sort_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 */
public record SortInfoRow(Long sortId, Long tableId, Long beginSnapshot, Long endSnapshot)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_sort_info",
          List.of(
              new ColumnDef("sort_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false)));

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
    return Arrays.asList(sortId, tableId, beginSnapshot, endSnapshot);
  }
}
