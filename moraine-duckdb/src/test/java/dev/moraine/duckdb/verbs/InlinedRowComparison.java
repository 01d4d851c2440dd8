package dev.moraine.duckdb.verbs;

import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.math.BigDecimal;
import java.sql.Blob;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares the on-demand tables of inlined data, {@code ducklake_inlined_data_<t>_<v>} and {@code
 * ducklake_inlined_delete_<t>}, between a stock DuckLake catalog (the tables its metadata file
 * holds) and our rendering of a snapshot: the same table names, and in each the same rows, as
 * sorted lists. Values compare in one form per kind, whichever side they come from (DuckDB's JDBC
 * objects, or Arrow Java's cells of our chunks): a decimal as its plain text, a date as its day
 * number, a time as microseconds since midnight, a timestamp without zone as its local date-time,
 * one with a zone as microseconds since the epoch, a blob as hex, a float or double as its exact
 * text, other numbers as integers (a {@code BigInteger} in full), a struct as its members in field
 * order and a list as its elements, each in its own form, and anything else as its text; nothing is
 * masked.
 */
public final class InlinedRowComparison {
  private InlinedRowComparison() {}

  /** The differing tables with both sides' rows; empty when both hold the same. */
  public static List<String> differences(ReferenceDuckLake stock, DuckLakeRowSet ours)
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
    row.forEach((k, v) -> out.put(k, canonical(v)));
    return out.toString();
  }

  private static Object canonical(Object v) {
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof LocalDate d) {
      return d.toEpochDay();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate().toEpochDay();
    }
    if (v instanceof LocalTime t) {
      return t.toNanoOfDay() / 1000;
    }
    if (v instanceof java.sql.Time t) {
      return t.toLocalTime().toNanoOfDay() / 1000;
    }
    if (v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    if (v instanceof OffsetDateTime t) {
      Instant i = t.toInstant();
      return i.getEpochSecond() * 1_000_000 + i.getNano() / 1000;
    }
    if (v instanceof byte[] b) {
      return HexFormat.of().formatHex(b);
    }
    if (v instanceof Blob b) {
      try {
        return HexFormat.of().formatHex(b.getBytes(1, (int) b.length()));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    if (v instanceof Float || v instanceof Double) {
      return v.toString(); // exactly, fraction and all (Java prints both sides' values alike)
    }
    if (v instanceof java.math.BigInteger b) {
      return b.toString();
    }
    if (v instanceof Number n) {
      return Long.toString(n.longValue()); // an integer of at most 64 bits
    }
    if (v instanceof java.sql.Struct struct) {
      try {
        return canonical(((org.duckdb.DuckDBStruct) struct).getMap());
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    if (v instanceof java.sql.Array array) {
      try {
        return canonical(Arrays.asList((Object[]) array.getArray()));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
    if (v instanceof List<?> elements) {
      List<Object> out = new ArrayList<>();
      elements.forEach(e -> out.add(canonical(e)));
      return out;
    }
    if (v instanceof Map<?, ?> members) {
      Map<Object, Object> out = new LinkedHashMap<>();
      members.forEach((k, m) -> out.put(k, canonical(m)));
      return out;
    }
    return v == null ? null : v.toString();
  }
}
