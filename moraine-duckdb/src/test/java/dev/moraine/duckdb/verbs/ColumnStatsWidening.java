package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnStats;
import java.util.Optional;

/**
 * A table's column statistics widened by a new file's bounds, as a writer (stock DuckLake's INSERT
 * among them) keeps them: the lower of the minima, the higher of the maxima, and nulls if either
 * side has them. Bounds compare as numbers when both are integers, otherwise as text.
 */
final class ColumnStatsWidening {
  private ColumnStatsWidening() {}

  /**
   * Widens table {@code tableId}'s stats by a file; its i-th column is table column {@code ids[i]}.
   */
  static void widen(Transaction tx, long tableId, ParquetFacts f, long... ids) {
    for (int i = 0; i < f.columns().size(); i++) {
      ParquetFacts.Column c = f.columns().get(i);
      widen(tx, tableId, ids[i], c.min(), c.max(), c.nullCount() > 0);
    }
  }

  /**
   * Widens one column's stats by a file's bounds ({@code null} where the file has none) and whether
   * it holds nulls.
   */
  static void widen(
      Transaction tx, long tableId, long columnId, String min, String max, boolean nulls) {
    Optional<ColumnStats> before = tx.premise().columnStats(tableId, columnId);
    if (before.isPresent()) {
      ColumnStats b = before.get();
      String lo = min;
      String hi = max;
      min = b.minValue().filter(m -> lo == null || lessThan(m, lo)).orElse(min);
      max = b.maxValue().filter(m -> hi == null || lessThan(hi, m)).orElse(max);
      nulls |= b.containsNull().orElse(false);
    }
    tx.updateColumnStats(
        tableId,
        columnId,
        Optional.of(nulls),
        Optional.empty(),
        Optional.ofNullable(min),
        Optional.ofNullable(max),
        Optional.empty());
  }

  private static boolean lessThan(String a, String b) {
    try {
      return Long.parseLong(a) < Long.parseLong(b);
    } catch (NumberFormatException e) {
      return a.compareTo(b) < 0;
    }
  }
}
