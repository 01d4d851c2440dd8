package dev.moraine.duckdb.export;

import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.SqlType;
import dev.moraine.ducklake.rows.TableDef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The DuckDB file an export writes: opening it, telling whether it holds a DuckLake 1.0 catalog,
 * and reading its snapshot log in a form comparable with the lake's rendering.
 */
final class CatalogFile {
  private CatalogFile() {}

  /** Opens (creating) a DuckDB database file, with extension autoloading off. */
  static Connection open(Path file) throws SQLException {
    Properties props = new Properties();
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    return DriverManager.getConnection("jdbc:duckdb:" + file, props);
  }

  /**
   * Opens an existing file, refusing one DuckDB cannot open as a database or that another process
   * holds.
   */
  static Connection openExisting(Path file) {
    try {
      return open(file);
    } catch (SQLException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("lock")) {
        throw new ExportRefusedException(
            file, ExportRefusedException.Reason.IN_USE, "another process holds it open", e);
      }
      throw new ExportRefusedException(
          file,
          ExportRefusedException.Reason.NOT_A_CATALOG,
          "DuckDB cannot open it as a database (" + message + ")",
          e);
    }
  }

  /**
   * Checks that the file's main schema holds the 28 spec tables with their columns, DuckLake's
   * inlined tables and nothing else, and that its catalog is of format 1.0; returns the names of
   * its inlined tables.
   */
  static List<String> checkIsCatalog(Connection connection, Path file) throws SQLException {
    Map<String, List<String>> tables = new TreeMap<>();
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT table_name, column_name FROM information_schema.columns"
                    + " WHERE table_catalog = current_database()"
                    + " ORDER BY table_schema, table_name, ordinal_position")) {
      while (rs.next()) {
        tables.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
      }
    }
    List<String> inlined = new ArrayList<>();
    TreeSet<String> foreign = new TreeSet<>();
    for (String name : tables.keySet()) {
      if (name.startsWith("ducklake_inlined_data_") && !name.equals("ducklake_inlined_data_tables")
          || name.startsWith("ducklake_inlined_delete_")) {
        inlined.add(name);
      } else if (DuckLakeTables.ALL.stream().noneMatch(d -> d.name().equals(name))) {
        foreign.add(name);
      }
    }
    for (TableDef def : DuckLakeTables.ALL) {
      List<String> columns = tables.get(def.name());
      if (columns == null || !columns.equals(def.columnNames())) {
        throw notACatalog(
            file,
            columns == null
                ? "it has no table " + def.name()
                : "its " + def.name() + " has columns " + columns);
      }
    }
    if (!foreign.isEmpty()) {
      throw notACatalog(file, "it holds tables a DuckLake catalog does not: " + foreign);
    }
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT value FROM main.ducklake_metadata WHERE key = 'version' AND scope IS NULL")) {
      String version = rs.next() ? rs.getString(1) : null;
      if (!DuckLakeTables.CATALOG_VERSION.equals(version)) {
        throw notACatalog(
            file,
            "its DuckLake catalog is of version "
                + version
                + ", not "
                + DuckLakeTables.CATALOG_VERSION);
      }
    }
    return inlined;
  }

  private static ExportRefusedException notACatalog(Path file, String detail) {
    return new ExportRefusedException(
        file, ExportRefusedException.Reason.NOT_A_CATALOG, "not a DuckLake catalog: " + detail);
  }

  /** The newest snapshot id in the file. */
  static long lastSnapshot(Connection connection, Path file) throws SQLException {
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT max(snapshot_id) FROM main.ducklake_snapshot")) {
      rs.next();
      long last = rs.getLong(1);
      if (rs.wasNull()) {
        throw notACatalog(file, "its ducklake_snapshot is empty");
      }
      return last;
    }
  }

  /**
   * The file's {@code ducklake_snapshot} and {@code ducklake_snapshot_changes} rows by snapshot id,
   * each as {@link #text(DuckLakeRow)} gives the lake's.
   */
  static Map<Long, List<String>> snapshotLog(Connection connection) throws SQLException {
    Map<Long, List<String>> out = new TreeMap<>(Long::compareUnsigned);
    for (TableDef def : List.of(SnapshotRow.DEF, SnapshotChangesRow.DEF)) {
      for (List<String> cells : rows(connection, def)) {
        out.computeIfAbsent(Long.parseLong(cells.get(0)), k -> new ArrayList<>())
            .add(def.name() + cells);
      }
    }
    return out;
  }

  /**
   * Every row of one spec table in the file, each as its columns' text in the form {@link
   * #text(DuckLakeRow)} gives a rendered row's: a timestamp as microseconds since the epoch, any
   * other value as DuckDB casts it to text, null as null.
   */
  static List<List<String>> rows(Connection connection, TableDef def) throws SQLException {
    List<String> columns = new ArrayList<>();
    for (var c : def.columns()) {
      columns.add(
          c.type() == SqlType.TIMESTAMPTZ
              ? "CAST(epoch_us(" + c.name() + ") AS VARCHAR)"
              : "CAST(" + c.name() + " AS VARCHAR)");
    }
    List<List<String>> out = new ArrayList<>();
    try (Statement st = connection.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT " + String.join(", ", columns) + " FROM main." + def.name())) {
      int n = def.columns().size();
      while (rs.next()) {
        List<String> cells = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
          cells.add(rs.getString(i));
        }
        out.add(cells);
      }
    }
    return out;
  }

  /** One rendered row in the form {@link #snapshotLog} reads the file's. */
  static String text(DuckLakeRow row) {
    List<String> cells = new ArrayList<>();
    for (Object v : row.values()) {
      if (v == null) {
        cells.add(null);
      } else if (v instanceof Instant i) {
        cells.add(
            Long.toString(
                Math.addExact(
                    Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000)));
      } else {
        cells.add(v.toString());
      }
    }
    return row.def().name() + cells;
  }

  /** The first snapshot id at which the two logs differ. */
  static String firstDifference(Map<Long, List<String>> a, Map<Long, List<String>> b) {
    TreeSet<Long> ids = new TreeSet<>(Long::compareUnsigned);
    ids.addAll(a.keySet());
    ids.addAll(b.keySet());
    for (long id : ids) {
      if (!java.util.Objects.equals(a.get(id), b.get(id))) {
        return Long.toUnsignedString(id);
      }
    }
    return "none";
  }
}
