package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.CompactionInput;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.parquet.ParquetCompaction;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * moraine-parquet's compaction on the demo's files (uncompressed, no field ids, a city null in
 * every fifth row): three files merged and the merged file rewritten past rows deleted inline, the
 * outputs read back with DuckDB, and their registrations landing through the verbs.
 */
class DemoFilesCompactionTest {

  @Test
  void demoFiles_mergeAndRewrite_intoFilesDuckDbReads(@TempDir Path dir) throws Exception {
    Path lake = dir.resolve("lake");
    Path data = dir.resolve("data");
    Path table = data.resolve("main").resolve("demo");
    Files.createDirectories(table);
    SlateStoreProvider provider =
        new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      createDemoTable(catalog);
      List<ColumnInfo> columns = catalog.snapshot().columns(1);
      for (int n = 0; n < 3; n++) {
        Path file = table.resolve("part-" + n + ".parquet");
        DemoParquetWriter.write(file, n, 100);
        FooterStats footer = FooterStats.read(file);
        List<NewFileColumnStats> stats = footer.registrationStats(columns);
        String name = file.getFileName().toString();
        catalog.commit(
            tx ->
                tx.registerDataFile(
                    1,
                    NewDataFile.parquet(
                            name, footer.recordCount(), footer.fileSizeBytes(), footer.footerSize())
                        .withColumnStats(stats)));
      }

      Path mergedPath = table.resolve("merged.parquet");
      NewDataFile merged =
          ParquetCompaction.merge(
              columns,
              CompactionInput.of(catalog.snapshot(), 1, List.of(0L, 1L, 2L), table),
              mergedPath,
              "merged.parquet");
      assertEquals(300, merged.recordCount());
      assertEquals(
          List.of(
              new NewFileColumnStats(
                  1,
                  size(merged, 1),
                  300,
                  0,
                  Optional.of("0"),
                  Optional.of("299"),
                  Optional.empty(),
                  Optional.empty()),
              new NewFileColumnStats(
                  2,
                  size(merged, 2),
                  240,
                  60,
                  Optional.of("Bergen"),
                  Optional.of("Quito"),
                  Optional.empty(),
                  Optional.empty()),
              new NewFileColumnStats(
                  3,
                  size(merged, 3),
                  300,
                  0,
                  Optional.of("0.0"),
                  Optional.of("74.75"),
                  Optional.of(false),
                  Optional.empty())),
          merged.columnStats());
      catalog.commit(tx -> tx.mergeDataFiles(1, List.of(0L, 1L, 2L), merged));

      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        String m = "'" + mergedPath + "'";
        assertEquals(
            List.of("id 1", "city 2", "amount 3", "_ducklake_internal_snapshot_id 2147483539"),
            strings(
                duck,
                "SELECT name || ' ' || field_id FROM parquet_schema("
                    + m
                    + ") WHERE field_id IS NOT NULL"));
        // Each row keeps the snapshot that registered its file (2, 3 and 4).
        assertEquals(
            List.of("2 100 0", "3 100 100", "4 100 200"),
            strings(
                duck,
                "SELECT s || ' ' || count(*) || ' ' || min(id) FROM (SELECT"
                    + " _ducklake_internal_snapshot_id AS s, id FROM read_parquet("
                    + m
                    + ")) GROUP BY s ORDER BY s"));
        assertEquals(
            List.of("300 44850 240"),
            strings(
                duck,
                "SELECT count(*) || ' ' || sum(id) || ' ' || count(city) FROM read_parquet("
                    + m
                    + ")"));

        // Ten rows of the merged file deleted inline, then the file rewritten without them.
        catalog.commit(
            tx -> {
              for (long r = 0; r < 10; r++) {
                tx.deleteRowInline(1, r);
              }
            });
        List<CompactionInput> inputs =
            CompactionInput.of(catalog.snapshot(), 1, List.of(3L), table);
        assertEquals(10, inputs.get(0).deletedPositions().size());
        Path rewrittenPath = table.resolve("rewritten.parquet");
        NewDataFile rewritten =
            ParquetCompaction.rewrite(columns, inputs, rewrittenPath, "rewritten.parquet");
        assertEquals(290, rewritten.recordCount());
        assertEquals(Optional.of("10"), rewritten.columnStats().get(0).minValue());
        catalog.commit(tx -> tx.rewriteDataFiles(1, List.of(3L), rewritten));
        String r = "'" + rewrittenPath + "'";
        assertEquals(
            List.of("290 10 299 true"),
            strings(
                duck,
                "SELECT count(*) || ' ' || min(_ducklake_internal_row_id) || ' '"
                    + " || max(_ducklake_internal_row_id)"
                    + " || ' ' || bool_and(_ducklake_internal_row_id = id) FROM read_parquet("
                    + r
                    + ")"));
      }
      assertEquals(
          List.of(4L), catalog.snapshot().dataFiles(1).stream().map(f -> f.dataFileId()).toList());
      assertEquals(290, catalog.snapshot().tableStats(1).orElseThrow().recordCount());
    }
  }

  /** The maintenance pass merging the demo's files with {@link LocalFileMerger}. */
  @Test
  void thePass_mergesDemoFiles_withTheLocalMerger(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("data");
    Path table = data.resolve("main").resolve("demo");
    Files.createDirectories(table);
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.localDirectory(dir.resolve("lake")), ""));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      createDemoTable(catalog);
      for (int n = 0; n < 4; n++) {
        if (n == 2) {
          // A run stays within one schema version: files 0 and 1 merge, and 2 and 3.
          catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("note", "varchar")));
        }
        Path file = table.resolve("part-" + n + ".parquet");
        DemoParquetWriter.write(file, n, 50);
        FooterStats footer = FooterStats.read(file);
        String name = file.getFileName().toString();
        catalog.commit(
            tx ->
                tx.registerDataFile(
                    1,
                    NewDataFile.parquet(
                        name, footer.recordCount(), footer.fileSizeBytes(), footer.footerSize())));
      }
      LocalFileMerger merger = LocalFileMerger.of(catalog, data);
      assertEquals(table, merger.tableDirectory(catalog.snapshot(), 1));
      MaintenancePass pass =
          catalog.runMaintenance(
              MaintenancePolicy.every(Duration.ofHours(1)).mergingSmallFiles(merger, 1000));
      assertEquals(
          List.of("skipped", "skipped", "ran", "skipped", "skipped"),
          pass.steps().stream().map(st -> st.status()).toList());
      List<DataFileInfo> files = catalog.snapshot().dataFiles(1);
      assertEquals(List.of(100L, 100L), files.stream().map(DataFileInfo::recordCount).toList());
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        for (int i = 0; i < 2; i++) {
          assertEquals(
              List.of("100 " + (i == 0 ? 4950 : 14950)),
              strings(
                  duck,
                  "SELECT count(*) || ' ' || sum(id) FROM read_parquet('"
                      + table.resolve(files.get(i).path())
                      + "')"));
        }
      }
      // Sixty rows of the first merged file deleted inline; the rewrite step takes it alone.
      long first = files.get(0).dataFileId();
      catalog.commit(
          tx -> {
            for (long r = 0; r < 60; r++) {
              tx.deleteRowInline(1, r);
            }
          });
      MaintenancePass rewrite =
          catalog.runMaintenance(
              MaintenancePolicy.every(Duration.ofHours(1)).rewritingDeletedRows(merger, 0.5));
      assertEquals("rewrote 1 files into 1", rewrite.step("rewrite").detail());
      List<DataFileInfo> after = catalog.snapshot().dataFiles(1);
      assertEquals(2, after.size());
      assertTrue(after.stream().noneMatch(f -> f.dataFileId() == first));
      DataFileInfo rewritten = after.get(after.size() - 1);
      assertEquals(40, rewritten.recordCount());
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        assertEquals(
            List.of("40 60 99"),
            strings(
                duck,
                "SELECT count(*) || ' ' || min(_ducklake_internal_row_id) || ' '"
                    + " || max(id) FROM read_parquet('"
                    + table.resolve(rewritten.path())
                    + "')"));
      }
    }
  }

  /** The demo's table, id 1: id int64, city varchar, amount float64 (column ids 1, 2, 3). */
  private static void createDemoTable(Catalog catalog) {
    catalog.commit(
        tx ->
            tx.createTable(
                0,
                "demo",
                List.of(
                    ColumnDef.of("id", "int64").notNull(),
                    ColumnDef.of("city", "varchar"),
                    ColumnDef.of("amount", "float64").notNull())));
  }

  private static long size(NewDataFile file, long columnId) {
    return file.columnStats().stream()
        .filter(s -> s.columnId() == columnId)
        .findFirst()
        .orElseThrow()
        .columnSizeBytes();
  }

  private static List<String> strings(Connection c, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
