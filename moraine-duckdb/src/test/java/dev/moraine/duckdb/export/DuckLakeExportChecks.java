package dev.moraine.duckdb.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/** What every export test checks of an export, through raw DuckDB and through DuckLake. */
final class DuckLakeExportChecks {
  private DuckLakeExportChecks() {}

  /**
   * Exports the lake's head into {@code file} and checks it: the file's rows are the renderer's,
   * and stock DuckDB attaching it finds at each snapshot of {@code expected} exactly the tables
   * named there with their "count,sum" of the first column.
   */
  static ExportResult exportAndCheck(
      ExportLake lake, Path file, Map<Long, Map<String, String>> expected, boolean created)
      throws Exception {
    Catalog c = lake.catalog;
    ExportResult result = DuckLakeExport.export(c, c.snapshot(), file);
    assertEquals(created, result.created(), result.toString());
    assertEquals(c.snapshot().snapshotId(), result.snapshotId());

    DuckLakeRowSet rendered = DuckLakeRowRenderer.render(c.snapshot());
    try (Connection raw = openReadOnly(file)) {
      for (TableDef def : DuckLakeTables.ALL) {
        assertEquals(renderedText(rendered, def), fileText(raw, def), def.name());
      }
      TreeSet<String> inlinedNames = new TreeSet<>();
      for (InlinedTable t : rendered.inlinedTables()) {
        inlinedNames.add(t.name());
        assertEquals(
            List.of(List.of(Integer.toString(t.rows().size()))),
            ExportLake.query(raw, "SELECT count(*) FROM main." + t.name()),
            t.name());
      }
      List<String> inFile = new ArrayList<>();
      for (List<String> r :
          ExportLake.query(
              raw,
              "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                  + " AND (table_name LIKE 'ducklake_inlined_data_%' OR table_name LIKE"
                  + " 'ducklake_inlined_delete_%') AND table_name <> 'ducklake_inlined_data_tables'"
                  + " ORDER BY 1")) {
        inFile.add(r.get(0));
      }
      assertEquals(new ArrayList<>(inlinedNames), inFile);
    }

    try (Connection duck = lake.attach(file)) {
      List<List<String>> log = new ArrayList<>();
      for (SnapshotInfo s : c.snapshot().snapshotLog()) {
        log.add(List.of(Long.toString(s.snapshotId())));
      }
      assertEquals(
          log,
          ExportLake.query(duck, "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1"));
      for (Map.Entry<Long, Map<String, String>> at : expected.entrySet()) {
        for (Map.Entry<String, String> table : at.getValue().entrySet()) {
          String key = table.getKey().startsWith("u") ? "a" : "id";
          List<List<String>> got =
              ExportLake.query(
                  duck,
                  "SELECT count(*), sum("
                      + key
                      + ") FROM lake.main."
                      + table.getKey()
                      + " AT (VERSION => "
                      + at.getKey()
                      + ")");
          assertEquals(
              table.getValue(),
              got.get(0).get(0) + "," + got.get(0).get(1),
              table.getKey() + " at snapshot " + at.getKey());
        }
      }
      long last = ((java.util.TreeMap<Long, Map<String, String>>) expected).lastKey();
      List<List<String>> tables = new ArrayList<>();
      for (String name : new TreeSet<>(expected.get(last).keySet())) {
        tables.add(List.of(name));
      }
      assertEquals(
          tables,
          ExportLake.query(
              duck,
              "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake' ORDER BY 1"));
    }
    return result;
  }

  private static Connection openReadOnly(Path file) throws Exception {
    Properties props = new Properties();
    props.setProperty("duckdb.read_only", "true");
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    return DriverManager.getConnection("jdbc:duckdb:" + file, props);
  }

  /** The file's rows of one spec table, as text, sorted. */
  static List<String> fileText(Connection raw, TableDef def) throws Exception {
    List<String> out = new ArrayList<>();
    for (List<String> cells : CatalogFile.rows(raw, def)) {
      out.add(def.name() + cells);
    }
    out.sort(null);
    return out;
  }

  /** The renderer's rows of one spec table in the same form, sorted. */
  static List<String> renderedText(DuckLakeRowSet rows, TableDef def) {
    List<String> out = new ArrayList<>();
    for (DuckLakeRow row : rows.rows(def.name())) {
      out.add(CatalogFile.text(row));
    }
    out.sort(null);
    return out;
  }
}
