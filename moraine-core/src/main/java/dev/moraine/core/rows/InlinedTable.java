package dev.moraine.core.rows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One inlined-data table, {@code ducklake_inlined_data_<table>_<schema version>}, as DuckLake names
 * and shapes it: {@code row_id}, {@code begin_snapshot}, {@code end_snapshot}, then the table's
 * columns at that schema version.
 *
 * @param name the table name
 * @param columns the column names, in order
 * @param columnTypes the DuckDB type of each column, in the same order
 * @param rows each row's values in column order (null is SQL NULL)
 */
public record InlinedTable(
    String name, List<String> columns, List<DuckDbType> columnTypes, List<List<Object>> rows) {
  /**
   * Copies the lists (rows may hold nulls).
   *
   * @throws IllegalArgumentException if there are not as many types as columns
   */
  public InlinedTable {
    columns = List.copyOf(columns);
    columnTypes = List.copyOf(columnTypes);
    if (columnTypes.size() != columns.size()) {
      throw new IllegalArgumentException(
          columnTypes.size() + " column types for " + columns.size() + " columns");
    }
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }
}
