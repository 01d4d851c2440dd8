package dev.moraine.store.commit;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import java.util.Map;
import java.util.TreeMap;

/** What the nested inline tests read of table 1's columns: ids by name, and their statistics. */
final class InlineColumnFacts {
  private InlineColumnFacts() {}

  /** Column id to "contains_null min max" ("null" where absent) of table 1. */
  static Map<Long, String> stats(CatalogSnapshot s) {
    Map<Long, String> out = new TreeMap<>();
    for (ColumnStats c : s.columnStats(1)) {
      out.put(
          c.columnId(),
          c.containsNull().map(String::valueOf).orElse("null")
              + " "
              + c.minValue().orElse("null")
              + " "
              + c.maxValue().orElse("null"));
    }
    return out;
  }

  /** The id of table 1's first column named {@code name}, nested ones included. */
  static long columnId(CatalogSnapshot s, String name) {
    return s.columns(1).stream()
        .filter(c -> c.name().equals(name))
        .mapToLong(ColumnInfo::columnId)
        .findFirst()
        .orElseThrow();
  }
}
