package dev.moraine.bench;

import static dev.moraine.bench.BenchOutput.latencies;
import static dev.moraine.bench.BenchOutput.print;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.CompactionInput;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.parquet.ParquetCodecs;
import dev.moraine.parquet.ParquetCompaction;
import dev.moraine.parquet.ParquetInlineFlush;
import dev.moraine.store.ObjectStoreLakeFiles;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * A compaction of many small files, and what a concurrent writer sees while a whole maintenance
 * pass runs.
 *
 * <p>{@code CompactionBench <dir> <files>} builds a lake in a local directory (no fsync) with two
 * tables, {@code a} and {@code b}, each given {@code files} Snappy Parquet files of 100 rows {@code
 * (id int64, city varchar, amount double)} written with parquet-java and registered in groups of
 * 64, and a third table {@code w} for a writer. It then measures:
 *
 * <ul>
 *   <li>the compaction of table {@code a}: moraine-parquet's merge of its files into one, and the
 *       {@code mergeDataFiles} commit that registers it;
 *   <li>the flush of table {@code c}'s inlined data (1,000 rows inlined by 100 commits, 10 of them
 *       deleted): moraine-parquet's {@code ParquetInlineFlush} writing its files, and the {@code
 *       flushInlined} commit that registers them;
 *   <li>the writer committing one (large, so never merged) file at a time, alone for five seconds,
 *       and again while one maintenance pass runs on another thread: the flush of table {@code d}'s
 *       inlined data (inlined as {@code c}'s), expiry down to the newest snapshot, the merge of
 *       table {@code b}'s files with {@code LocalFileMerger}, and the cleanup of every scheduled
 *       file.
 * </ul>
 *
 * It prints {@code key=value} lines.
 */
public final class CompactionBench {
  private static final int ROWS = 100;
  private static final int GROUP = 64;
  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id = 1; optional binary city (STRING) = 2;"
              + " required double amount = 3; }");
  private static final String[] CITIES = {"Bergen", "Lyon", "Osaka", "Quito", "Tromso"};

  private CompactionBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: CompactionBench <dir> <files>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int files = Integer.parseInt(args[1]);
    Path data = dir.resolve("data");
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(
                    new ObjectStoreSpec.LocalDirectory(dir.resolve("lake")).withoutFsync(), "")
                .withSettings(StoreSettings.defaults().withFlushTimerOff()));
    try (KvStore store = provider.openWriter();
        Catalog catalog =
            Catalog.open(
                store,
                CatalogOptions.defaults()
                    .withDataPath(data + "/")
                    .withFlushSpacing(Duration.ZERO));
        ObjectStoreLakeFiles lakeFiles =
            ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(data), "")) {
      long a = table(catalog, "a");
      long b = table(catalog, "b");
      long w = table(catalog, "w");
      long c = table(catalog, "c");
      long d = table(catalog, "d");
      inline(catalog, c);
      inline(catalog, d);
      long t0 = System.nanoTime();
      fill(catalog, data.resolve("main").resolve("a"), a, files);
      fill(catalog, data.resolve("main").resolve("b"), b, files);
      print("build_seconds", (System.nanoTime() - t0) / 1e9);

      Path aDir = data.resolve("main").resolve("a");
      List<Long> ids = catalog.snapshot().dataFiles(a).stream().map(f -> f.dataFileId()).toList();
      long m0 = System.nanoTime();
      NewDataFile merged =
          ParquetCompaction.merge(
              catalog.snapshot().columns(a),
              CompactionInput.of(catalog.snapshot(), a, ids, aDir),
              aDir.resolve("merged.parquet"),
              "merged.parquet");
      long m1 = System.nanoTime();
      catalog.commit(tx -> tx.mergeDataFiles(a, ids, merged));
      long m2 = System.nanoTime();
      print("merge_inputs", ids.size());
      print("merge_rows", merged.recordCount());
      print("merge_file_bytes", merged.fileSizeBytes());
      print("merge_write_seconds", (m1 - m0) / 1e9);
      print("merge_commit_ms", (m2 - m1) / 1e6);

      Path cDir = data.resolve("main").resolve("c");
      Files.createDirectories(cDir);
      long f0 = System.nanoTime();
      InlineFlush flush = ParquetInlineFlush.write(catalog.snapshot(), c, cDir).orElseThrow();
      long f1 = System.nanoTime();
      catalog.commit(tx -> tx.flushInlined(c, flush));
      long f2 = System.nanoTime();
      print("flush_rows", flush.parts().get(0).dataFile().recordCount());
      print("flush_write_ms", (f1 - f0) / 1e6);
      print("flush_commit_ms", (f2 - f1) / 1e6);
      Files.createDirectories(data.resolve("main").resolve("d"));

      long[] alone = writer(catalog, w, null);
      AtomicBoolean running = new AtomicBoolean(true);
      MaintenancePass[] pass = new MaintenancePass[1];
      long[] passNanos = new long[1];
      MaintenancePolicy policy =
          MaintenancePolicy.every(Duration.ofHours(1))
              .flushingInlinedData(LocalFileMerger.of(catalog, data))
              .keepingNewestSnapshots(1)
              .mergingSmallFiles(LocalFileMerger.of(catalog, data), ROWS + 1)
              .cleaningUpFiles(lakeFiles, Duration.ZERO);
      Thread maintenance =
          new Thread(
              () -> {
                long p0 = System.nanoTime();
                try {
                  pass[0] = catalog.runMaintenance(policy);
                } finally {
                  passNanos[0] = System.nanoTime() - p0;
                  running.set(false);
                }
              });
      maintenance.start();
      long[] during = writer(catalog, w, running);
      maintenance.join();
      print("pass_seconds", passNanos[0] / 1e9);
      for (MaintenancePass.Step step : pass[0].steps()) {
        System.out.println("pass_step_" + step.step() + "=" + step.status() + " " + step.detail());
      }
      print("b_files_after_pass", catalog.snapshot().dataFiles(b).size());
      print("d_inlined_rows_after_pass", catalog.snapshot().inlinedRows(d).rows().size());
      latencies("alone", alone);
      latencies("during_pass", during);
    }
  }

  private static long table(Catalog catalog, String name) {
    return catalog
        .commitReturning(
            tx ->
                tx.createTable(
                    0,
                    name,
                    List.of(
                        ColumnDef.of("id", "int64").notNull(),
                        ColumnDef.of("city", "varchar"),
                        ColumnDef.of("amount", "float64").notNull())))
        .value();
  }

  /** Inlines 1,000 rows into {@code table}, 10 a commit, then deletes 10 of them inline. */
  private static void inline(Catalog catalog, long table) {
    for (int k = 0; k < 100; k++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        long id = k * 10L + i;
        rows.add(
            java.util.Arrays.asList(
                id, id % 5 == 4 ? null : CITIES[(int) (id % CITIES.length)], (id % 1000) / 4.0));
      }
      catalog.commit(tx -> tx.insertInlined(table, rows));
    }
    for (long id = 0; id < 1000; id += 100) {
      long rowId = id;
      catalog.commit(tx -> tx.deleteRowInline(table, rowId));
    }
  }

  /** Writes and registers {@code files} files of {@code ROWS} rows into {@code table}. */
  private static void fill(Catalog catalog, Path tableDir, long table, int files)
      throws IOException {
    Files.createDirectories(tableDir);
    List<CommitBody> group = new ArrayList<>();
    for (int n = 0; n < files; n++) {
      String name = "part-" + n + ".parquet";
      Path path = tableDir.resolve(name);
      write(path, n);
      NewDataFile file = NewDataFile.parquet(name, ROWS, Files.size(path), 0);
      group.add(tx -> tx.registerDataFile(table, file));
      if (group.size() == GROUP || n == files - 1) {
        catalog.commitGroup(group);
        group = new ArrayList<>();
      }
    }
  }

  private static void write(Path path, int n) throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(path))
            .withConf(new PlainParquetConfiguration())
            .withType(SCHEMA)
            .withCodecFactory(ParquetCodecs.INSTANCE)
            .withCompressionCodec(CompressionCodecName.SNAPPY)
            .withWriteMode(ParquetFileWriter.Mode.CREATE)
            .build()) {
      for (long id : LongStream.range((long) n * ROWS, (long) (n + 1) * ROWS).toArray()) {
        Group row = groups.newGroup().append("id", id);
        if (id % 5 != 4) {
          row.append("city", CITIES[(int) (id % CITIES.length)]);
        }
        writer.write(row.append("amount", (id % 1000) / 4.0));
      }
    }
  }

  /**
   * Commits one file at a time into the writer's table, for five seconds when {@code until} is
   * null, else while it holds (and at least once); each file claims more rows than a small file
   * has, so the pass never merges it. Returns each commit's latency in nanoseconds.
   */
  private static long[] writer(Catalog catalog, long table, AtomicBoolean until) {
    List<Long> took = new ArrayList<>();
    long end = System.nanoTime() + 5_000_000_000L;
    int n = 0;
    do {
      int k = n++;
      long t0 = System.nanoTime();
      catalog.commit(
          tx ->
              tx.registerDataFile(
                  table, NewDataFile.parquet("w" + k + "-" + t0 + ".parquet", 10_000, 1_000, 200)));
      took.add(System.nanoTime() - t0);
    } while (until == null ? System.nanoTime() < end : until.get());
    return took.stream().mapToLong(Long::longValue).toArray();
  }
}
