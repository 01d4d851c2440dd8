package dev.moraine.duckdb.reference;

import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.ducklake.rows.ColumnDef;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.MetadataRow;
import dev.moraine.ducklake.rows.SqlType;
import dev.moraine.ducklake.rows.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares the spec-1.0 ducklake_* rows of a stock DuckLake lake with our rendering of a snapshot,
 * table by table, as sorted lists of normalised rows. Normalised are exactly: UUID columns (random
 * on each side), TIMESTAMPTZ columns (wall clock), and the values of the {@code ducklake_metadata}
 * keys {@code created_by} (the writer's name) and {@code data_path} (an absolute directory of each
 * side's own). Everything else, ids and counters included, must be equal.
 */
public final class DuckLakeRowDiff {
  public static final String UUID_MARK = "<uuid>";
  public static final String TIME_MARK = "<time>";

  private DuckLakeRowDiff() {}

  /**
   * The tables whose rows differ, each with both sides' rows; empty when the two catalogs hold the
   * same rows.
   */
  public static List<String> differences(ReferenceDuckLake stock, DuckLakeRowSet ours)
      throws SQLException {
    Map<String, List<Map<String, Object>>> theirs = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      theirs.put(def.name(), stock.rows(def.name()));
    }
    return differences(theirs, ours);
  }

  /**
   * The same, with the stock rows already read: {@code stock} maps each spec table's name to its
   * rows as {@link ReferenceDuckLake#rows} returns them.
   */
  public static List<String> differences(
      Map<String, List<Map<String, Object>>> stock, DuckLakeRowSet ours) {
    List<String> differing = new ArrayList<>();
    for (TableDef def : DuckLakeTables.ALL) {
      List<String> theirs =
          stock.get(def.name()).stream().map(r -> normalised(def, r)).sorted().toList();
      List<String> mine =
          ours.rows(def.name()).stream().map(r -> normalised(def, asMap(r))).sorted().toList();
      if (!theirs.equals(mine)) {
        differing.add(def.name() + "\n  stock: " + theirs + "\n  ours:  " + mine);
      }
    }
    return differing;
  }

  /** One of our rows by column name, in the table's column order. */
  public static Map<String, Object> asMap(DuckLakeRow row) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> values = row.values();
    for (int i = 0; i < values.size(); i++) {
      m.put(row.def().columns().get(i).name(), values.get(i));
    }
    return m;
  }

  /** One row as text with the documented fields masked; numbers compared by value. */
  public static String normalised(TableDef def, Map<String, Object> row) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (ColumnDef c : def.columns()) {
      Object v = row.get(c.name());
      if (v != null && c.type() == SqlType.UUID) {
        v = UUID_MARK;
      } else if (v != null && c.type() == SqlType.TIMESTAMPTZ) {
        v = TIME_MARK;
      } else if (v instanceof Number n) {
        // Every number of the spec tables is a BIGINT; compared exactly, whatever Java type
        // DuckDB's
        // JDBC or our rows give it.
        v = new java.math.BigDecimal(n.toString()).toPlainString();
      }
      out.put(c.name(), v);
    }
    if (def.name().equals(MetadataRow.TABLE)) {
      Object key = out.get("key");
      if ("created_by".equals(key)) {
        out.put("value", "<created_by>");
      } else if ("data_path".equals(key)) {
        out.put("value", "<data_path>");
      }
    }
    return out.toString();
  }
}
