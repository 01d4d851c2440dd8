package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the inline type tests share: rows built from values (nulls allowed), an inline insert that
 * must be refused, and what they read of table 1's columns (ids by name, their statistics).
 */
final class InlineColumnFacts {
  private InlineColumnFacts() {}

  /** A mutable row of the given values, nulls allowed. */
  static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /**
   * Inserts {@code bad} inline into {@code table}, which must be refused with an {@link
   * InvalidArgumentException} whose message contains {@code fragment}, writing nothing ({@link
   * CommitLake#refused}); {@code what} names the case in a failure.
   */
  static void assertInsertRefused(
      CommitLake lake, long table, List<Object> bad, String fragment, Object what) {
    InvalidArgumentException e =
        lake.refused(InvalidArgumentException.class, tx -> tx.insertInlined(table, List.of(bad)));
    assertTrue(e.getMessage().contains(fragment), what + ": " + e.getMessage());
  }

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
