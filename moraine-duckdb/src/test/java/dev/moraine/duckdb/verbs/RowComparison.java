package dev.moraine.duckdb.verbs;

import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.DuckLakeRowDiff;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.TableDef;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The verb tests' name for {@link DuckLakeRowDiff}: the spec-1.0 ducklake_* rows of a stock lake
 * against our rendering, with exactly the fields that class documents masked.
 */
final class RowComparison {
  static final String UUID_MARK = DuckLakeRowDiff.UUID_MARK;
  static final String TIME_MARK = DuckLakeRowDiff.TIME_MARK;

  private RowComparison() {}

  /** See {@link DuckLakeRowDiff#differences(ReferenceDuckLake, DuckLakeRowSet)}. */
  static List<String> differences(ReferenceDuckLake stock, DuckLakeRowSet ours)
      throws SQLException {
    return DuckLakeRowDiff.differences(stock, ours);
  }

  /** See {@link DuckLakeRowDiff#asMap}. */
  static Map<String, Object> asMap(DuckLakeRow row) {
    return DuckLakeRowDiff.asMap(row);
  }

  /** See {@link DuckLakeRowDiff#normalised}. */
  static String normalised(TableDef def, Map<String, Object> row) {
    return DuckLakeRowDiff.normalised(def, row);
  }
}
