package dev.moraine.duckdb.session;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.duckdb.DuckDBStruct;

/**
 * The inlined-data tables of a DuckLake metadata catalog as {@link CommitCapture} reads them, and
 * the operations a commit made on them ({@link StagedRows.InlinedOp}): a row new in {@code
 * ducklake_inlined_data_<t>_<v>} is an inlined insert, a row whose {@code end_snapshot} the commit
 * set an inlined end, a row new in {@code ducklake_inlined_delete_<t>} an inlined deletion of a
 * data file's row, and a row gone from either a removal by a flush ({@link
 * StagedRows.InlinedRemoval}, {@link StagedRows.InlinedFileDeleteRemoval}).
 *
 * <p>Each row is kept in two forms: by column label with values compared by content (to tell rows
 * apart), and, for the user columns of an inlined-data table, in the forms the inline verbs take
 * (structs as maps by member name, lists as lists, timestamps as {@code LocalDateTime}, ...).
 */
final class InlinedCapture {
  private static final Pattern DATA = Pattern.compile("ducklake_inlined_data_(\\d+)_(\\d+)");
  private static final Pattern DELETE = Pattern.compile("ducklake_inlined_delete_(\\d+)");

  /** The system columns of an inlined-data table, before the user columns. */
  private static final int SYSTEM_COLUMNS = 3;

  /** One inlined table's rows: by label (compared by content), and the user columns' values. */
  record Table(List<Map<String, Object>> rows, List<List<Object>> values) {
    Table {
      rows = List.copyOf(rows);
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  private InlinedCapture() {}

  /** Whether {@code name} is an inlined-data or inlined-delete table. */
  static boolean isInlined(String name) {
    return DATA.matcher(name).matches() || DELETE.matcher(name).matches();
  }

  /** Reads inlined table {@code name} of {@code quotedCatalog}; null if it does not exist. */
  static Table read(Connection connection, String quotedCatalog, String name) throws SQLException {
    try {
      return readExisting(connection, quotedCatalog, name);
    } catch (SQLException e) {
      if (e.getMessage() != null && e.getMessage().contains("does not exist")) {
        return null;
      }
      throw e;
    }
  }

  private static Table readExisting(Connection connection, String quotedCatalog, String name)
      throws SQLException {
    List<Map<String, Object>> rows = new ArrayList<>();
    List<List<Object>> values = new ArrayList<>();
    boolean data = DATA.matcher(name).matches();
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT * FROM " + quotedCatalog + ".\"" + name.replace("\"", "\"\"") + "\"")) {
      ResultSetMetaData meta = rs.getMetaData();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        List<Object> user = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnLabel(i), CommitCapture.comparable(rs.getObject(i)));
          if (data && i > SYSTEM_COLUMNS) {
            user.add(inlineForm(rs, i, meta.getColumnTypeName(i)));
          }
        }
        rows.add(Collections.unmodifiableMap(row));
        values.add(data ? Collections.unmodifiableList(user) : List.of());
      }
    }
    return new Table(rows, values);
  }

  /** A top-level value in the form the inline verbs take. */
  private static Object inlineForm(ResultSet rs, int column, String typeName) throws SQLException {
    String type = typeName.toUpperCase(java.util.Locale.ROOT);
    if (rs.getObject(column) == null) {
      return null;
    }
    if (type.equals("TIMESTAMP")
        || type.equals("TIMESTAMP_S")
        || type.equals("TIMESTAMP_MS")
        || type.equals("TIMESTAMP_NS")) {
      return rs.getObject(column, LocalDateTime.class);
    }
    return inlineForm(rs.getObject(column));
  }

  /** A value, nested or not, in the form the inline verbs take. */
  private static Object inlineForm(Object v) throws SQLException {
    if (v instanceof DuckDBStruct st) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : st.getMap().entrySet()) {
        out.put(e.getKey(), inlineForm(e.getValue()));
      }
      return out;
    }
    if (v instanceof java.sql.Array a) {
      List<Object> out = new ArrayList<>();
      for (Object item : (Object[]) a.getArray()) {
        out.add(inlineForm(item));
      }
      return out;
    }
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.put(inlineForm(e.getKey()), inlineForm(e.getValue()));
      }
      return out;
    }
    if (v instanceof Blob b) {
      return b.getBytes(1, (int) b.length());
    }
    if (v instanceof Timestamp t) {
      return t.toLocalDateTime();
    }
    if (v instanceof OffsetDateTime t) {
      return t.toInstant();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.sql.Time t) {
      return t.toLocalTime();
    }
    if (v instanceof LocalDate || v instanceof LocalTime) {
      return v;
    }
    return v;
  }

  /**
   * The operations a commit made on the inlined tables, from {@code before} to {@code after} (each
   * table name to its rows).
   */
  static List<StagedRows.InlinedOp> between(Map<String, Table> before, Map<String, Table> after) {
    List<StagedRows.InlinedOp> ops = new ArrayList<>();
    Set<String> names = new HashSet<>(before.keySet());
    names.addAll(after.keySet());
    for (String name : names) {
      Table was = before.getOrDefault(name, new Table(List.of(), List.of()));
      Table now = after.getOrDefault(name, new Table(List.of(), List.of()));
      Set<Map<String, Object>> old = new HashSet<>(was.rows());
      Set<Map<String, Object>> fresh = new HashSet<>(now.rows());
      List<Map<String, Object>> gone =
          new ArrayList<>(was.rows().stream().filter(r -> !fresh.contains(r)).toList());
      Matcher data = DATA.matcher(name);
      Matcher delete = DELETE.matcher(name);
      for (int i = 0; i < now.rows().size(); i++) {
        Map<String, Object> row = now.rows().get(i);
        if (old.contains(row)) {
          continue;
        }
        if (data.matches()) {
          long tableId = Long.parseUnsignedLong(data.group(1));
          long version = Long.parseUnsignedLong(data.group(2));
          long rowId = number(row, "row_id");
          Map<String, Object> earlier = CommitCapture.endedFrom(row, gone);
          if (earlier != null) {
            gone.remove(earlier);
            ops.add(
                new StagedRows.InlinedEnd(tableId, version, rowId, number(row, "end_snapshot")));
          } else {
            ops.add(
                new StagedRows.InlinedInsert(
                    tableId, version, rowId, number(row, "begin_snapshot"), now.values().get(i)));
          }
        } else if (delete.matches()) {
          ops.add(
              new StagedRows.InlinedFileDelete(
                  Long.parseUnsignedLong(delete.group(1)),
                  number(row, "file_id"),
                  number(row, "row_id"),
                  number(row, "begin_snapshot")));
        }
      }
      // Rows gone outright: a flush moved them into files.
      for (Map<String, Object> row : gone) {
        if (data.matches()) {
          ops.add(
              new StagedRows.InlinedRemoval(
                  Long.parseUnsignedLong(data.group(1)),
                  Long.parseUnsignedLong(data.group(2)),
                  number(row, "row_id"),
                  number(row, "begin_snapshot")));
        } else if (delete.matches()) {
          ops.add(
              new StagedRows.InlinedFileDeleteRemoval(
                  Long.parseUnsignedLong(delete.group(1)),
                  number(row, "file_id"),
                  number(row, "row_id")));
        }
      }
    }
    return ops;
  }

  private static long number(Map<String, Object> row, String column) {
    Object v = row.get(column);
    if (!(v instanceof Number n)) {
      throw new InvalidArgumentException(
          "an inlined table's " + column + " is " + v + ", where a number belongs");
    }
    return n.longValue();
  }
}
