package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.SlateStoreProvider;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The cost of a one-row inlined insert into a table with 0, 1 or 3 equality indexes, beside the
 * Rust implementation's cost for the same commits ({@code moraine-index-bench run}, in
 * moraine-store/native/oracle; {@code moraine-bench/index-commit-bench.sh} runs both). In a new
 * lake at the directory given, the table {@code main.events (id int64, name varchar, ok boolean)}
 * gets the indexes {@code by_id} (UNIQUE, over id), then {@code by_name} and {@code by_ok}, and
 * each commit inlines one row, the library deriving its entries and checking the UNIQUE one against
 * the store, with a WAL flush per commit.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.IndexCommitBench <new lake dir>
 * <indexes: 0, 1 or 3> <warmup commits> <measured commits>}. Prints one line of {@code key=value}
 * figures per measured commit: wall time and process CPU time.
 */
public final class IndexCommitBench {
  private static final String[] NAMES = {"Ada", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"};

  private IndexCommitBench() {}

  public static void main(String[] args) {
    if (args.length != 4) {
      System.err.println(
          "usage: IndexCommitBench <new lake dir> <indexes: 0, 1 or 3> <warmup> <samples>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int indexes = Integer.parseInt(args[1]);
    int warmup = Integer.parseInt(args[2]);
    int samples = Integer.parseInt(args[3]);
    if ((indexes != 0 && indexes != 1 && indexes != 3) || warmup < 0 || samples <= 0) {
      System.err.println("IndexCommitBench: indexes is 0, 1 or 3, warmup >= 0 and samples > 0");
      System.exit(2);
    }
    // As moraine-index-bench opens its lake: a local directory, no fsync (the Rust object store's
    // local directory does not fsync).
    SlateStoreProvider provider = BenchStore.localWithoutFsync(dir);
    try (KvStore store = provider.openWriter();
        // The Rust side flushes the WAL in each commit and publishes no checkpoint; so does this
        // side here (flush spacing zero: a lone committer's flush starts at once, not a tenth of
        // the spacing after the last), so both commits end at the same point: durable in the WAL.
        Catalog catalog =
            Catalog.open(
                store,
                CatalogOptions.defaults()
                    .withCheckpointPublication(false)
                    .withFlushSpacing(java.time.Duration.ZERO))) {
      long table =
          catalog
              .commitReturning(
                  tx ->
                      tx.createTable(
                          0,
                          "events",
                          List.of(
                              ColumnDef.of("id", "int64"),
                              ColumnDef.of("name", "varchar"),
                              ColumnDef.of("ok", "boolean"))))
              .value();
      List<ColumnInfo> columns = catalog.snapshot().columns(table);
      String[] names = {"by_id", "by_name", "by_ok"};
      for (int i = 0; i < indexes; i++) {
        String name = names[i];
        long column = columns.get(i).columnId();
        boolean unique = i == 0;
        catalog.commit(tx -> tx.createIndex(table, name, List.of(column), unique));
      }
      for (int n = 0; n < warmup; n++) {
        insert(catalog, table, n);
      }
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long process = os.getProcessCpuTime();
      long started = System.nanoTime();
      for (int n = warmup; n < warmup + samples; n++) {
        insert(catalog, table, n);
      }
      double wall = System.nanoTime() - started;
      double cpu = os.getProcessCpuTime() - process;
      System.out.println(
          String.format(
              Locale.ROOT,
              "impl=java indexes=%d commits=%d wall_us=%.1f process_cpu_us=%.1f",
              indexes,
              samples,
              wall / samples / 1e3,
              cpu / samples / 1e3));
    }
  }

  private static void insert(Catalog catalog, long table, int n) {
    catalog.commit(
        tx ->
            tx.insertInlined(
                table, List.of(List.of((long) n, NAMES[n % NAMES.length], n % 2 == 0))));
  }
}
