package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.duckdb.export.DuckLakeExport;
import dev.moraine.duckdb.reference.DuckLakeExtension;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The files stock DuckLake wrote, as the tests that write their own beside them compare them: a
 * data file's registration as stock made it, its statistics without the sizes (each writer's own),
 * and rows read through JDBC. Stateless.
 */
final class StockFiles {
  private StockFiles() {}

  /**
   * DuckDB reading {@code catalog}, exported to {@code export}, sees table {@code t} at every
   * snapshot from 2 to the head as it sees stock's: the rows of {@code projection}, by row id.
   */
  static void assertReadAsStock(
      ReferenceDuckLake stock, Catalog catalog, Path export, String projection) throws Exception {
    DuckLakeExport.export(catalog, catalog.snapshot(), export);
    long last = catalog.snapshot().info().snapshotId();
    try (Connection ours = DuckLakeExtension.attachReadOnly(export, stock.dataPath())) {
      for (long v = 2; v <= last; v++) {
        String sql =
            "SELECT concat_ws('|', "
                + projection
                + ") AS r FROM %s.t AT (VERSION => "
                + v
                + ") ORDER BY rowid";
        List<String> expected = new ArrayList<>();
        stock.query(String.format(sql, stock.alias())).forEach(r -> expected.add(r.toString()));
        List<String> actual = rows(ours, String.format(sql, "lake"));
        assertTrue(!expected.isEmpty(), "snapshot " + v + " holds rows");
        assertEquals(expected, actual, "the rows at snapshot " + v);
      }
    }
  }

  /** Data file {@code id} of stock's lake, registered as stock registered it. */
  static NewDataFile asStock(ReferenceDuckLake stock, long id) throws Exception {
    Map<String, Object> row =
        stock.rows("ducklake_data_file").stream()
            .filter(r -> number(r, "data_file_id") == id)
            .findFirst()
            .orElseThrow();
    List<NewFileColumnStats> stats = new ArrayList<>();
    for (Map<String, Object> s : stock.rows("ducklake_file_column_stats")) {
      if (number(s, "data_file_id") == id) {
        stats.add(
            new NewFileColumnStats(
                number(s, "column_id"),
                number(s, "column_size_bytes"),
                number(s, "value_count"),
                number(s, "null_count"),
                Optional.ofNullable((String) s.get("min_value")),
                Optional.ofNullable((String) s.get("max_value")),
                Optional.ofNullable((Boolean) s.get("contains_nan")),
                Optional.empty()));
      }
    }
    return NewDataFile.parquet(
            (String) row.get("path"),
            number(row, "record_count"),
            number(row, "file_size_bytes"),
            number(row, "footer_size"))
        .withColumnStats(stats);
  }

  /** Stock's statistics of data file {@code id}, without the sizes (each writer's own). */
  static Map<Long, List<Object>> statsOf(ReferenceDuckLake stock, long id) throws Exception {
    Map<Long, List<Object>> out = new LinkedHashMap<>();
    for (Map<String, Object> s : stock.rows("ducklake_file_column_stats")) {
      if (number(s, "data_file_id") == id) {
        out.put(
            number(s, "column_id"),
            List.of(
                number(s, "value_count"),
                number(s, "null_count"),
                Optional.ofNullable(s.get("min_value")),
                Optional.ofNullable(s.get("max_value")),
                Optional.ofNullable(s.get("contains_nan"))));
      }
    }
    return out;
  }

  static Map<Long, List<Object>> comparable(List<NewFileColumnStats> stats) {
    Map<Long, List<Object>> out = new LinkedHashMap<>();
    for (NewFileColumnStats s : stats) {
      out.put(
          s.columnId(),
          List.of(
              s.valueCount(),
              s.nullCount(),
              s.minValue().map(Object.class::cast),
              s.maxValue().map(Object.class::cast),
              s.containsNan().map(Object.class::cast)));
    }
    return out;
  }

  static long number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).longValue();
  }

  static List<String> rows(Connection c, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
          row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
        }
        out.add(row.toString());
      }
    }
    return out;
  }
}
