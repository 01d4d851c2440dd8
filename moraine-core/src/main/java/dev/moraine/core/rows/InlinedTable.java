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
 * @param rows each row's values in column order (null is SQL NULL)
 */
public record InlinedTable(String name, List<String> columns, List<List<Object>> rows) {
  /** Copies the lists (rows may hold nulls). */
  public InlinedTable {
    columns = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }
}
