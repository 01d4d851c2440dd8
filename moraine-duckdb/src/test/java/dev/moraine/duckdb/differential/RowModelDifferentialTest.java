package dev.moraine.duckdb.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.duckdb.reference.MetadataColumn;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.ColumnDef;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.SqlType;
import dev.moraine.ducklake.rows.TableDef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our row model of the ducklake_* tables ({@link DuckLakeTables}) against the tables stock DuckLake
 * creates in a fresh catalog: names, column order, types, NOT NULL and primary keys, and the rows
 * of a fresh catalog.
 */
class RowModelDifferentialTest {

  @TempDir Path dir;

  /**
   * The closed world: the tables stock DuckLake created in a fresh metadata catalog, read from the
   * catalog file itself with a plain DuckDB connection (no DuckLake involved), are exactly the
   * tables of our row model, and the harness probes the same list.
   */
  @Test
  void tableList_isWhatStockDuckLakeCreated() throws Exception {
    Path metadataFile;
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      metadataFile = lake.metadataFile();
    }
    List<String> created = new ArrayList<>();
    Properties readOnly = new Properties();
    readOnly.setProperty("duckdb.read_only", "true");
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:" + metadataFile, readOnly);
        Statement statement = connection.createStatement();
        ResultSet tables =
            statement.executeQuery("SELECT table_name FROM duckdb_tables() ORDER BY table_name")) {
      while (tables.next()) {
        created.add(tables.getString(1));
      }
    }
    assertTrue(created.size() >= 20, "a fresh catalog file holds the spec tables: " + created);
    List<String> ours = DuckLakeTables.ALL.stream().map(TableDef::name).sorted().toList();
    assertEquals(created, ours);
    assertEquals(created, ReferenceDuckLake.SPEC_TABLES.stream().sorted().toList());
  }

  @TestFactory
  Stream<DynamicTest> everyMetadataTable_hasDuckLakesColumns() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      for (TableDef def : DuckLakeTables.ALL) {
        List<MetadataColumn> stock = lake.describe(def.name());
        List<MetadataColumn> ours =
            def.columns().stream().map(RowModelDifferentialTest::asDescribed).toList();
        tests.add(DynamicTest.dynamicTest(def.name(), () -> assertEquals(stock, ours, def.name())));
      }
    }
    return tests.stream();
  }

  @Test
  void freshCatalog_hasOnlyTheDocumentedRows() throws Exception {
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      for (TableDef def : DuckLakeTables.ALL) {
        List<Map<String, Object>> rows = lake.rows(def.name());
        int expected =
            switch (def.name()) {
              case "ducklake_metadata" -> 4;
              case "ducklake_snapshot", "ducklake_snapshot_changes", "ducklake_schema" -> 1;
              default -> 0;
            };
        assertEquals(expected, rows.size(), def.name() + ": " + rows);
      }
      Map<String, Object> schema = lake.rows("ducklake_schema").get(0);
      assertEquals(0L, ((Number) schema.get("schema_id")).longValue());
      assertEquals(0L, ((Number) schema.get("begin_snapshot")).longValue());
      assertEquals(null, schema.get("end_snapshot"));
      assertEquals("main", schema.get("schema_name"));
      assertEquals("main/", schema.get("path"));
      assertEquals(true, schema.get("path_is_relative"));
    }
  }

  private static MetadataColumn asDescribed(ColumnDef c) {
    return new MetadataColumn(
        c.name(), duckdbSpelling(c.type()), !(c.notNull() || c.primaryKey()), c.primaryKey());
  }

  private static String duckdbSpelling(SqlType type) {
    return type == SqlType.TIMESTAMPTZ ? "TIMESTAMP WITH TIME ZONE" : type.name();
  }
}
