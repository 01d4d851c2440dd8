package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.LocalFileIndexValues;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.store.SlateStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * A lookup by value in an equality index of many rows: in a new lake at the directory given, the
 * table {@code main.facts (id int64, g int64)} gets one Parquet file of N rows ({@code id} = 0 ..
 * N-1, {@code g} = id mod 1000), registered, then the indexes {@code by_id} (UNIQUE) and {@code
 * by_g}, each created in one commit and backfilled from the file (through {@code
 * LocalFileIndexValues}). Then {@code ReadOnlyCatalog.lookupIndex} looks up random values: ids (one
 * row each) and groups (N/1000 rows each).
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.IndexLookupBench <new lake dir> <rows>
 * <lookups>}. Prints the time to write and register the file and to create each index, then one
 * line per index: the lookups' mean, median and 99th-percentile wall time, with the rows found.
 */
public final class IndexLookupBench {
  private IndexLookupBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: IndexLookupBench <new lake dir> <rows> <lookups>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int rows = Integer.parseInt(args[1]);
    int lookups = Integer.parseInt(args[2]);
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    SlateStoreProvider provider = BenchStore.localWithoutFsync(dir.resolve("lake"));
    CatalogOptions options =
        CatalogOptions.defaults()
            .withDataPath(data + "/")
            .withFileIndexValues(LocalFileIndexValues.of(data));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, options)) {
      long table =
          catalog
              .commitReturning(
                  tx ->
                      tx.createTable(
                          0,
                          "facts",
                          List.of(ColumnDef.of("id", "int64"), ColumnDef.of("g", "int64"))))
              .value();
      List<ColumnInfo> columns = catalog.snapshot().columns(table);
      Path tableDir = LocalFileMerger.of(catalog, data).tableDirectory(catalog.snapshot(), table);
      Files.createDirectories(tableDir);
      long t0 = System.nanoTime();
      NewDataFile file = write(tableDir.resolve("facts.parquet"), columns, rows);
      catalog.commit(tx -> tx.registerDataFile(table, file));
      long t1 = System.nanoTime();
      catalog.commit(
          tx -> tx.createIndex(table, "by_id", List.of(columns.get(0).columnId()), true));
      long t2 = System.nanoTime();
      catalog.commit(
          tx -> tx.createIndex(table, "by_g", List.of(columns.get(1).columnId()), false));
      long t3 = System.nanoTime();
      System.out.println(
          String.format(
              Locale.ROOT,
              "rows=%d write_and_register_s=%.2f create_by_id_s=%.2f create_by_g_s=%.2f",
              rows,
              (t1 - t0) / 1e9,
              (t2 - t1) / 1e9,
              (t3 - t2) / 1e9));
      SplittableRandom random = new SplittableRandom(42);
      for (String index : List.of("by_id", "by_g")) {
        int bound = index.equals("by_id") ? rows : 1000;
        // Warm-up: as many lookups as measured ones.
        for (int i = 0; i < lookups; i++) {
          catalog.lookupIndex(table, index, List.of((long) random.nextInt(bound)));
        }
        long[] times = new long[lookups];
        long found = 0;
        for (int i = 0; i < lookups; i++) {
          long value = random.nextInt(bound);
          long s = System.nanoTime();
          found += catalog.lookupIndex(table, index, List.of(value)).size();
          times[i] = System.nanoTime() - s;
        }
        Arrays.sort(times);
        double mean = Arrays.stream(times).average().orElse(0);
        System.out.println(
            String.format(
                Locale.ROOT,
                "index=%s lookups=%d rows_per_lookup=%.1f mean_us=%.1f p50_us=%.1f p99_us=%.1f",
                index,
                lookups,
                (double) found / lookups,
                mean / 1e3,
                times[lookups / 2] / 1e3,
                times[(int) (lookups * 0.99)] / 1e3));
      }
    }
  }

  /** Writes the file of {@code rows} rows, its fields carrying the columns' ids. */
  private static NewDataFile write(Path path, List<ColumnInfo> columns, int rows) throws Exception {
    MessageType schema =
        Types.buildMessage()
            .optional(PrimitiveTypeName.INT64)
            .id((int) columns.get(0).columnId())
            .named("id")
            .optional(PrimitiveTypeName.INT64)
            .id((int) columns.get(1).columnId())
            .named("g")
            .named("duckdb_schema");
    try (var writer =
        ExampleParquetWriter.builder(new LocalOutputFile(path))
            .withConf(new PlainParquetConfiguration())
            .withType(schema)
            .build()) {
      SimpleGroupFactory groups = new SimpleGroupFactory(schema);
      for (long i = 0; i < rows; i++) {
        writer.write(groups.newGroup().append("id", i).append("g", i % 1000));
      }
    }
    return NewDataFile.parquet(path.getFileName().toString(), rows, Files.size(path), 1_000);
  }
}
