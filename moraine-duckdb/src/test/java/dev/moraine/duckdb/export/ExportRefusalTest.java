package dev.moraine.duckdb.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.model.ColumnDef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export refuses a file it cannot bring forward with a typed error, and leaves it byte for byte
 * as it was; an export of an earlier snapshot holds that snapshot's history only.
 */
class ExportRefusalTest {
  @TempDir Path dir;

  private static ExportRefusedException refused(
      ExportRefusedException.Reason reason, Path file, Runnable export) throws Exception {
    byte[] before = Files.readAllBytes(file);
    ExportRefusedException e = assertThrows(ExportRefusedException.class, export::run);
    assertEquals(ErrorCode.EXPORT_REFUSED, e.code());
    assertEquals(reason, e.reason(), e.getMessage());
    assertEquals(file.toAbsolutePath(), e.file());
    assertArrayEquals(before, Files.readAllBytes(file), "the file is left as it was");
    try (Stream<Path> left = Files.list(file.getParent())) {
      assertEquals(
          List.of(),
          left.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
          "no temporary file is left behind");
    }
    return e;
  }

  private static long twoTables(Catalog c) {
    c.commit(tx -> tx.createTable(0, "a", List.of(ColumnDef.of("id", "int64"))));
    long first = c.snapshot().tableByName(0, "a").orElseThrow().tableId();
    c.commit(tx -> tx.insertInlined(first, List.of(List.of(1L), List.of(2L))));
    return c.commit(tx -> tx.createTable(0, "b", List.of(ColumnDef.of("id", "int64"))));
  }

  @Test
  void aFileThatIsNotADuckDbDatabase_isRefused() throws Exception {
    try (ExportLake lake = new ExportLake(dir.resolve("lake"))) {
      twoTables(lake.catalog);
      Path file = dir.resolve("notes.ducklake");
      Files.writeString(file, "not a database, just some text that someone keeps here\n");
      refused(
          ExportRefusedException.Reason.NOT_A_CATALOG,
          file,
          () -> DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), file));
    }
  }

  @Test
  void aDuckDbDatabaseHoldingOtherTables_isRefused() throws Exception {
    try (ExportLake lake = new ExportLake(dir.resolve("lake"))) {
      twoTables(lake.catalog);
      Path file = dir.resolve("other.duckdb");
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE customers (id INTEGER, name VARCHAR)");
        st.execute("INSERT INTO customers VALUES (1, 'x')");
      }
      ExportRefusedException e =
          refused(
              ExportRefusedException.Reason.NOT_A_CATALOG,
              file,
              () -> DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), file));
      assertTrue(e.getMessage().contains("ducklake_metadata"), e.getMessage());

      // A DuckLake catalog with a table of someone else's beside it is refused too.
      Path export = dir.resolve("export.ducklake");
      DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), export);
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + export);
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE notes (t VARCHAR)");
      }
      lake.catalog.commit(tx -> tx.createSchema("more"));
      ExportRefusedException extra =
          refused(
              ExportRefusedException.Reason.NOT_A_CATALOG,
              export,
              () -> DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), export));
      assertTrue(extra.getMessage().contains("notes"), extra.getMessage());
    }
  }

  @Test
  void anExportOfAnotherLake_isRefused_asHistoryThatDisagrees() throws Exception {
    try (ExportLake one = new ExportLake(dir.resolve("one"));
        ExportLake other = new ExportLake(dir.resolve("other"))) {
      twoTables(one.catalog);
      twoTables(other.catalog);
      other.catalog.commit(tx -> tx.createSchema("more"));
      Path file = dir.resolve("one.ducklake");
      DuckLakeExport.export(one.catalog, one.catalog.snapshot(), file);
      // Same shape of history, other snapshot times: not this lake's export.
      refused(
          ExportRefusedException.Reason.HISTORY_DISAGREES,
          file,
          () -> DuckLakeExport.export(other.catalog, other.catalog.snapshot(), file));
    }
  }

  @Test
  void aFileAheadOfTheExportedSnapshot_isRefused() throws Exception {
    try (ExportLake lake = new ExportLake(dir.resolve("lake"))) {
      long head = twoTables(lake.catalog);
      Path file = dir.resolve("lake.ducklake");
      DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), file);
      ExportRefusedException e =
          refused(
              ExportRefusedException.Reason.FILE_AHEAD,
              file,
              () -> DuckLakeExport.export(lake.catalog, lake.catalog.snapshotAt(head - 1), file));
      assertTrue(e.getMessage().contains("snapshot " + head), e.getMessage());
    }
  }

  @Test
  void anEarlierSnapshot_exportsItsOwnHistory_andFollowsOnToTheHead() throws Exception {
    try (ExportLake lake = new ExportLake(dir.resolve("lake"))) {
      long head = twoTables(lake.catalog);
      Path file = dir.resolve("lake.ducklake");
      ExportResult early =
          DuckLakeExport.export(lake.catalog, lake.catalog.snapshotAt(head - 1), file);
      assertTrue(early.created());
      Map<Long, Map<String, String>> expected = new TreeMap<>();
      expected.put(head - 2, Map.of("a", "0,null"));
      expected.put(head - 1, Map.of("a", "2,3"));
      try (Connection duck = lake.attach(file)) {
        assertEquals(
            List.of(List.of("0"), List.of("1"), List.of("2")),
            ExportLake.query(
                duck, "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1"));
        assertEquals(
            List.of(List.of("a")),
            ExportLake.query(
                duck, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake'"));
      }
      Map<String, String> atHead = new TreeMap<>();
      atHead.put("a", "2,3");
      atHead.put("b", "0,null");
      expected.put(head, atHead);
      ExportResult followed = DuckLakeExportChecks.exportAndCheck(lake, file, expected, false);
      assertEquals(head - 1, followed.previousSnapshot().orElseThrow());
      assertFalse(followed.upToDate());
    }
  }
}
