package dev.moraine.duckdb.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lake of every change kind (nested types, a data file, inlined rows, an inline delete, a delete
 * file, a flush, a rename, an added column, a view, a dropped table), exported and attached by
 * stock DuckDB with the DuckLake extension: every table's count and sum at every snapshot is what
 * was written, {@code ducklake_snapshots()} lists the lake's log, and the file's rows are the
 * renderer's. Then the lake moves on and the export follows it.
 */
class DuckLakeExportTest {
  @TempDir Path dir;

  /** Per snapshot: table name to "count,sum" of its key column, as written. */
  private final Map<Long, Map<String, String>> expected = new TreeMap<>();

  private void expect(long snapshot, String... tableAndFigures) {
    Map<String, String> tables = new LinkedHashMap<>();
    for (int i = 0; i < tableAndFigures.length; i += 2) {
      tables.put(tableAndFigures[i], tableAndFigures[i + 1]);
    }
    expected.put(snapshot, tables);
  }

  @Test
  void aLakeOfEveryChangeKind_readsInDuckDb_atEverySnapshot_andTheExportFollowsIt()
      throws Exception {
    try (ExportLake lake = new ExportLake(dir)) {
      Catalog c = lake.catalog;
      long t =
          c.commit(
              tx ->
                  tx.createTable(
                      0,
                      "t",
                      List.of(
                          ColumnDef.of("id", "int64"),
                          ColumnDef.of("name", "varchar"),
                          ColumnDef.nested(
                              "s",
                              "struct",
                              ColumnDef.of("x", "int32"),
                              ColumnDef.of("y", "varchar")),
                          ColumnDef.nested("l", "list", ColumnDef.of("element", "float64")))));
      long tableT = c.snapshot().tableByName(0, "t").orElseThrow().tableId();
      expect(t, "t", "0,null");

      ExportLake.Written f1 =
          lake.parquet(
              "main/t/f1.parquet",
              "SELECT range AS id, 'n' || range AS name,"
                  + " {'x': range::INTEGER, 'y': 'y' || range} AS s,"
                  + " [range * 1.5, 2.0]::DOUBLE[] AS l FROM range(100)",
              "{id: 1, name: 2, s: {__duckdb_field_id: 3, x: 4, y: 5},"
                  + " l: {__duckdb_field_id: 6, element: 7}}");
      long[] fileId = new long[1];
      long s2 =
          c.commit(
              tx ->
                  fileId[0] =
                      tx.registerDataFile(
                          tableT,
                          NewDataFile.parquet("f1.parquet", f1.records(), f1.size(), f1.footer())));
      expect(s2, "t", "100,4950");

      long s3 =
          c.commit(
              tx ->
                  tx.insertInlined(
                      tableT,
                      List.of(
                          Arrays.asList(1000L, "a", Map.of("x", 1L, "y", "p"), List.of(1.5, 2.5)),
                          Arrays.asList(1001L, null, null, List.of()),
                          Arrays.asList(1002L, "c's", Map.of("x", -3L), null))));
      expect(s3, "t", "103,7953");

      long s4 = c.commit(tx -> tx.deleteRowInline(tableT, 101)); // the row of id 1001
      expect(s4, "t", "102,6952");

      ExportLake.Written d1 =
          lake.parquet(
              "main/t/d1.parquet",
              "SELECT '"
                  + lake.dataPath.resolve("main/t/f1.parquet")
                  + "' AS file_path, range::BIGINT AS pos FROM range(10)",
              null);
      long s5 =
          c.commit(
              tx ->
                  tx.registerDeleteFile(
                      tableT,
                      NewDeleteFile.parquet(
                          fileId[0], "d1.parquet", d1.records(), d1.size(), d1.footer())));
      expect(s5, "t", "92,6907");

      long s6 = c.commit(tx -> tx.renameTable(tableT, "t2"));
      expect(s6, "t2", "92,6907");
      long s7 = c.commit(tx -> tx.addColumn(tableT, ColumnDef.of("extra", "int32")));
      expect(s7, "t2", "92,6907");

      long s8 = c.commit(tx -> tx.createTable(0, "u", List.of(ColumnDef.of("a", "int64"))));
      long tableU = c.snapshot().tableByName(0, "u").orElseThrow().tableId();
      expect(s8, "t2", "92,6907", "u", "0,null");
      long s9 = c.commit(tx -> tx.insertInlined(tableU, List.of(List.of(5L), List.of(6L))));
      expect(s9, "t2", "92,6907", "u", "2,11");

      DuckLakeExportChecks.exportAndCheck(lake, dir.resolve("lake.ducklake"), expected, true);

      // The lake moves on: a flush, a view, a drop. Exporting again applies only that.
      ExportLake.Written flushed =
          lake.parquet("main/u/flushed.parquet", "SELECT * FROM (VALUES (5), (6)) v(a)", "{a: 1}");
      long s10 =
          c.commit(
              tx ->
                  tx.flushInlined(
                      tableU,
                      InlineFlush.of(
                          NewDataFile.parquet(
                              "flushed.parquet",
                              flushed.records(),
                              flushed.size(),
                              flushed.footer()))));
      expect(s10, "t2", "92,6907", "u", "2,11");
      long s11 = c.commit(tx -> tx.createView(0, "v", "duckdb", "SELECT 42 AS answer"));
      expect(s11, "t2", "92,6907", "u", "2,11");
      long s12 = c.commit(tx -> tx.dropTable(tableU));
      expect(s12, "t2", "92,6907");

      ExportResult again =
          DuckLakeExportChecks.exportAndCheck(lake, dir.resolve("lake.ducklake"), expected, false);
      assertEquals(s9, again.previousSnapshot().orElseThrow());
      assertEquals(s12, again.snapshotId());
      assertTrue(again.rowsInserted() > 0 && again.rowsInserted() < 60, again.toString());

      // Exporting the same snapshot again writes nothing.
      byte[] before = Files.readAllBytes(dir.resolve("lake.ducklake"));
      ExportResult same = DuckLakeExport.export(c, c.snapshot(), dir.resolve("lake.ducklake"));
      assertTrue(same.upToDate(), same.toString());
      assertArrayEquals(before, Files.readAllBytes(dir.resolve("lake.ducklake")));

      try (Connection duck = lake.attach(dir.resolve("lake.ducklake"))) {
        assertEquals(
            List.of(List.of("42")), ExportLake.query(duck, "SELECT answer FROM lake.main.v"));
        // Nested values, from the data file and from inlined rows (flushed or not).
        assertEquals(
            List.of(
                Arrays.asList("15", "15", "y15", "[22.5, 2.0]", null),
                Arrays.asList("1000", "1", "p", "[1.5, 2.5]", null),
                Arrays.asList("1002", "-3", null, null, null)),
            ExportLake.query(
                duck,
                "SELECT id, s.x, s.y, l, extra FROM lake.main.t2 WHERE id IN (5, 15, 1000, 1002)"
                    + " ORDER BY id"));
        // The file was registered without statistics: the table's bounds are unknown, so no
        // filter or ordering trusts the inlined rows' bounds and skips the file's rows.
        assertEquals(
            List.of(List.of("40")),
            ExportLake.query(duck, "SELECT count(*) FROM lake.main.t2 WHERE id < 50"));
      }
    }
  }
}
