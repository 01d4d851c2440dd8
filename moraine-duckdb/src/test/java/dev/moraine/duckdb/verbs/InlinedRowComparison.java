package dev.moraine.duckdb.verbs;

import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares the on-demand tables of inlined data, {@code ducklake_inlined_data_<t>_<v>} and {@code
 * ducklake_inlined_delete_<t>}, between a stock DuckLake catalog (the tables its metadata file
 * holds) and our rendering of a snapshot: the same table names, and in each the same rows, as
 * sorted lists. Values compare as numbers when numeric and as text otherwise; nothing is masked.
 */
final class InlinedRowComparison {
  private InlinedRowComparison() {}

  /** The differing tables with both sides' rows; empty when both hold the same. */
  static List<String> differences(ReferenceDuckLake stock, DuckLakeRowSet ours)
      throws SQLException {
    Map<String, List<String>> theirs = new TreeMap<>();
    for (String name : stock.metadataTables()) {
      if (name.startsWith("ducklake_inlined_data_") && !name.equals("ducklake_inlined_data_tables")
          || name.startsWith("ducklake_inlined_delete_")) {
        List<String> rows = new ArrayList<>();
        for (Map<String, Object> r : stock.rows(name)) {
          rows.add(text(r));
        }
        rows.sort(null);
        theirs.put(name, rows);
      }
    }
    Map<String, List<String>> mine = new TreeMap<>();
    for (InlinedTable t : ours.inlinedTables()) {
      List<String> rows = new ArrayList<>();
      for (List<Object> values : t.rows()) {
        Map<String, Object> r = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
          r.put(t.columns().get(i), values.get(i));
        }
        rows.add(text(r));
      }
      rows.sort(null);
      mine.put(t.name(), rows);
    }
    List<String> differing = new ArrayList<>();
    if (!theirs.keySet().equals(mine.keySet())) {
      differing.add("tables\n  stock: " + theirs.keySet() + "\n  ours:  " + mine.keySet());
    }
    for (Map.Entry<String, List<String>> e : theirs.entrySet()) {
      List<String> m = mine.get(e.getKey());
      if (m != null && !m.equals(e.getValue())) {
        differing.add(e.getKey() + "\n  stock: " + e.getValue() + "\n  ours:  " + m);
      }
    }
    return differing;
  }

  private static String text(Map<String, Object> row) {
    Map<String, Object> out = new LinkedHashMap<>();
    row.forEach((k, v) -> out.put(k, v instanceof Number n ? (Object) n.longValue() : v));
    return out.toString();
  }
}
