package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.parquet.CompactionInput;
import dev.moraine.parquet.ParquetCompaction;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * moraine-parquet's {@link ParquetCompaction} against stock DuckLake 1.5.5 on files DuckDB wrote
 * (Snappy pages; integers, text with nulls, dates, timestamps, decimals, doubles, floats with a
 * NaN): stock merges three files and then rewrites the merged one past a delete; our catalog,
 * holding the same files, merges and rewrites them through the helper and the verbs. The helper's
 * statistics must equal those stock recorded for its own outputs, and DuckDB reading our catalog
 * (exported) must see at every snapshot exactly the rows, row ids included, that it sees in
 * stock's.
 */
class ParquetCompactionTest {
  private static final String TYPES =
      "a INTEGER, b VARCHAR, d DATE, ts TIMESTAMP, x DECIMAL(9,2), db DOUBLE, f FLOAT";

  private static String insert(int from, int to) {
    return "INSERT INTO t SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || i END,"
        + " DATE '2024-01-01' + i::INTEGER,"
        + " TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 1500) MILLISECOND,"
        + " (i / 4)::DECIMAL(9,2), i * 1.5, CASE WHEN i = 13 THEN 'nan'::FLOAT ELSE i::FLOAT END"
        + " FROM range("
        + from
        + ", "
        + to
        + ") r(i)";
  }

  @Test
  void flatTypes_mergeAndRewriteAsStockDuckLake(@TempDir Path dir) throws Exception {
    compactLikeStock(
        dir,
        TYPES,
        List.of(
            ColumnDef.of("a", "int32"),
            ColumnDef.of("b", "varchar"),
            ColumnDef.of("d", "date"),
            ColumnDef.of("ts", "timestamp"),
            ColumnDef.of("x", "decimal(9,2)"),
            ColumnDef.of("db", "float64"),
            ColumnDef.of("f", "float32")),
        ParquetCompactionTest::insert,
        "rowid, a, coalesce(b, 'NULL'), d, ts, x, db, f");
  }

  /**
   * Booleans, blobs, doubles far from one, UTC timestamps past 2262, and a struct, a list and a map
   * with nulls, empty ones and null members.
   */
  @Test
  void moreTypesAndNestedOnes_mergeAndRewriteAsStockDuckLake(@TempDir Path dir) throws Exception {
    compactLikeStock(
        dir,
        "a INTEGER, bo BOOLEAN, bl BLOB, db DOUBLE, tz TIMESTAMPTZ,"
            + " s STRUCT(x INTEGER, y VARCHAR), l INTEGER[], m MAP(VARCHAR, INTEGER)",
        List.of(
            ColumnDef.of("a", "int32"),
            ColumnDef.of("bo", "boolean"),
            ColumnDef.of("bl", "blob"),
            ColumnDef.of("db", "float64"),
            ColumnDef.of("tz", "timestamptz"),
            ColumnDef.nested(
                "s", "struct", ColumnDef.of("x", "int32"), ColumnDef.of("y", "varchar")),
            ColumnDef.nested("l", "list", ColumnDef.of("element", "int32")),
            ColumnDef.nested(
                "m", "map", ColumnDef.of("key", "varchar"), ColumnDef.of("value", "int32"))),
        (from, to) ->
            "INSERT INTO t SELECT i, i % 3 = 0, ('\\x' || lpad(to_hex(i), 2, '0'))::BLOB,"
                + " CASE WHEN i % 5 = 0 THEN 1e20 * i ELSE 1e-5 * i END,"
                + " TIMESTAMPTZ '2300-01-01 00:00:00+00' - INTERVAL (i) DAY,"
                + " CASE WHEN i % 4 = 0 THEN NULL ELSE {'x': i, 'y': 'y' || i} END,"
                + " CASE WHEN i % 6 = 0 THEN NULL WHEN i % 6 = 1 THEN [] ELSE [i, NULL, i + 1] END,"
                + " CASE WHEN i % 7 = 0 THEN NULL WHEN i % 7 = 1 THEN MAP {}::MAP(VARCHAR, INTEGER)"
                + " ELSE MAP {'k' || i: i, 'n': NULL} END"
                + " FROM range("
                + from
                + ", "
                + to
                + ") r(i)",
        "rowid, a, bo, bl, db, tz, coalesce(s::VARCHAR, 'NULL'), coalesce(l::VARCHAR, 'NULL'),"
            + " coalesce(m::VARCHAR, 'NULL')");
  }

  /**
   * Table t created on both sides with {@code types} and {@code columns}, three inserts by {@code
   * insert(from, to)} on stock registered on ours; stock's merge and its rewrite past a delete,
   * ours through moraine-parquet; then the statistics and every snapshot's rows ({@code
   * projection}) compared.
   */
  private static void compactLikeStock(
      Path dir,
      String types,
      List<ColumnDef> columns,
      java.util.function.BiFunction<Integer, Integer, String> insert,
      String projection)
      throws Exception {
    try (ReferenceDuckLake stock =
        ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0).open()) {
      SlateStoreProvider provider =
          new SlateStoreProvider(
              StoreConfig.of(ObjectStoreSpec.inMemory("compaction-" + UUID.randomUUID()), "lake"));
      try (KvStore store = provider.openWriter();
          Catalog catalog =
              Catalog.open(
                  store,
                  CatalogOptions.defaults()
                      .withDataPath(stock.dataPath())
                      .withDataInliningRowLimit(0))) {
        Path table = Path.of(stock.dataPath()).resolve("main").resolve("t");
        stock.execute("CREATE TABLE t (" + types + ")");
        catalog.commit(tx -> tx.createTable(0, "t", columns));
        for (int k = 0; k < 3; k++) {
          stock.execute(insert.apply(50 * k, 50 * k + 50));
          NewDataFile file = StockFiles.asStock(stock, k);
          catalog.commit(tx -> tx.registerDataFile(1, file));
        }

        // The merge: stock's merge_adjacent_files, and ours through the helper.
        stock.execute("CALL ducklake_merge_adjacent_files('" + stock.alias() + "')");
        NewDataFile merged =
            ParquetCompaction.merge(
                catalog.snapshot().columns(1),
                CompactionInput.of(catalog.snapshot(), 1, List.of(0L, 1L, 2L), table),
                table.resolve("moraine-merged.parquet"),
                "moraine-merged.parquet");
        assertEquals(150, merged.recordCount());
        assertEquals(StockFiles.statsOf(stock, 3), StockFiles.comparable(merged.columnStats()));
        catalog.commit(tx -> tx.mergeDataFiles(1, List.of(0L, 1L, 2L), merged));

        // A delete on the merged file, registered on our side with stock's delete file.
        stock.execute("DELETE FROM t WHERE a % 3 = 0");
        Map<String, Object> del = stock.rows("ducklake_delete_file").get(0);
        catalog.commit(
            tx ->
                tx.registerDeleteFile(
                    1,
                    NewDeleteFile.parquet(
                        3,
                        (String) del.get("path"),
                        StockFiles.number(del, "delete_count"),
                        StockFiles.number(del, "file_size_bytes"),
                        StockFiles.number(del, "footer_size"))));

        // The rewrite: stock's rewrite_data_files, and ours through the helper.
        stock.execute(
            "CALL ducklake_rewrite_data_files('"
                + stock.alias()
                + "', 't', delete_threshold => 0)");
        List<CompactionInput> inputs =
            CompactionInput.of(catalog.snapshot(), 1, List.of(3L), table);
        assertEquals(50, inputs.get(0).deletedPositions().size());
        NewDataFile rewritten =
            ParquetCompaction.rewrite(
                catalog.snapshot().columns(1),
                inputs,
                table.resolve("moraine-rewritten.parquet"),
                "moraine-rewritten.parquet");
        assertEquals(100, rewritten.recordCount());
        assertEquals(StockFiles.statsOf(stock, 5), StockFiles.comparable(rewritten.columnStats()));
        catalog.commit(tx -> tx.rewriteDataFiles(1, List.of(3L), rewritten));

        // DuckDB reads our catalog as it reads stock's, at every snapshot.
        assertEquals(stock.latestSnapshot().snapshotId(), catalog.snapshot().info().snapshotId());
        StockFiles.assertReadAsStock(stock, catalog, dir.resolve("ours.ducklake"), projection);
      } finally {
        ObjectStoreSpec.dropInMemory(
            ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
      }
    }
  }
}
