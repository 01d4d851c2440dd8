package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The cost of creating one table per commit in a lake that already holds many: each commit runs
 * {@code createTable(main, new_i, [v BIGINT])}, whose name is checked against every table and view
 * of {@code main}, with a WAL flush per commit.
 *
 * <p>{@code build <lake dir> <tables> <tables per commit>} creates the lake through the verbs:
 * {@code tables} one-column tables in {@code main}, many per commit, and prints how long it took.
 * {@code run <lake dir> <warmup commits> <measured commits>} opens the lake, lists its tables once
 * (as an application that shows them would; it loads them into the head view, which later head
 * views carry forward), then commits and prints one line of {@code key=value} figures per measured
 * commit: the committing thread's CPU time and heap bytes, the process's CPU time and wall time.
 * Only the public API is used, so the class also runs against an older build of the library; {@code
 * moraine-bench/verb-create-bench.sh} runs it against two builds on copies of one lake.
 */
public final class VerbCreateBench {
  private static final List<ColumnDef> ONE = List.of(ColumnDef.of("v", "int64"));

  private VerbCreateBench() {}

  public static void main(String[] args) {
    if (args.length != 4 || !(args[0].equals("build") || args[0].equals("run"))) {
      System.err.println(
          "usage: VerbCreateBench build <lake dir> <tables> <tables per commit>\n"
              + "       VerbCreateBench run <lake dir> <warmup commits> <measured commits>");
      System.exit(2);
    }
    Path dir = Path.of(args[1]);
    int a = Integer.parseInt(args[2]);
    int b = Integer.parseInt(args[3]);
    if (args[0].equals("build")) {
      if (a < 0 || b <= 0) {
        System.err.println("VerbCreateBench: tables >= 0 and tables per commit > 0");
        System.exit(2);
      }
      build(dir, a, b);
    } else {
      if (!Files.isDirectory(dir.resolve("manifest")) || a < 0 || b <= 0) {
        System.err.println("VerbCreateBench: " + dir + " must be a built lake, samples > 0");
        System.exit(2);
      }
      run(dir, a, b);
    }
  }

  private static SlateStoreProvider provider(Path dir) {
    // As VerbCommitBench: the lake is the store root, opened without fsync.
    return new SlateStoreProvider(
        StoreConfig.of(new ObjectStoreSpec.LocalDirectory(dir).withoutFsync(), "")
            .withSettings(StoreSettings.defaults().withFlushTimerOff()));
  }

  private static void build(Path dir, int tables, int perCommit) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long start = System.nanoTime();
    try (KvStore store = provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      for (int first = 0; first < tables; first += perCommit) {
        int from = first;
        int to = Math.min(tables, first + perCommit);
        catalog.commit(
            tx -> {
              for (int i = from; i < to; i++) {
                tx.createTable(0, "t_" + i, ONE);
              }
            });
      }
    }
    System.out.println(
        String.format(
            Locale.ROOT,
            "build tables=%d per_commit=%d seconds=%.1f",
            tables,
            perCommit,
            (System.nanoTime() - start) / 1e9));
  }

  private static void run(Path dir, int warmup, int samples) {
    try (KvStore store = provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      int tables = catalog.snapshot().tablesIn(0).size();
      create(catalog, 0, warmup);

      java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      com.sun.management.ThreadMXBean heap = (com.sun.management.ThreadMXBean) threads;
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long bytes = heap.getCurrentThreadAllocatedBytes();
      long process = os.getProcessCpuTime();
      long thread = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      create(catalog, warmup, samples);
      double wall = System.nanoTime() - start;
      double threadCpu = threads.getCurrentThreadCpuTime() - thread;
      double processCpu = os.getProcessCpuTime() - process;
      double allocated = heap.getCurrentThreadAllocatedBytes() - bytes;
      System.out.println(
          String.format(
              Locale.ROOT,
              "tables=%d commits=%d thread_cpu_us=%.1f alloc_bytes=%.0f process_cpu_us=%.1f"
                  + " wall_us=%.1f",
              tables,
              samples,
              threadCpu / samples / 1e3,
              allocated / samples,
              processCpu / samples / 1e3,
              wall / samples / 1e3));
    }
  }

  /** {@code count} commits, numbered from {@code first}, each creating one table. */
  private static void create(Catalog catalog, int first, int count) {
    for (int i = first; i < first + count; i++) {
      String name = "new_" + i;
      catalog.commit(tx -> tx.createTable(0, name, ONE));
    }
  }
}
