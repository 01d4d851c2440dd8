package dev.moraine.duckdb.reference;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads query results as lists of column-ordered maps, the harness's generic row shape. */
final class SqlRows {

  private SqlRows() {}

  static List<Map<String, Object>> query(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      return read(rs);
    }
  }

  static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    int columns = meta.getColumnCount();
    List<Map<String, Object>> rows = new ArrayList<>();
    while (rs.next()) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 1; i <= columns; i++) {
        row.put(meta.getColumnLabel(i), rs.getObject(i));
      }
      rows.add(Collections.unmodifiableMap(row));
    }
    return Collections.unmodifiableList(rows);
  }

  static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Quotes an SQL string literal. */
  static String literal(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  /** Quotes an SQL identifier. */
  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
