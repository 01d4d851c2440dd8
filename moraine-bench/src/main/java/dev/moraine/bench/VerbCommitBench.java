package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.SlateStoreProvider;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The cost of one small verb commit in a lake of many unrelated tables: each commit updates the
 * table statistics of {@code main.target} and the statistics of its one column, through {@code
 * Catalog.commit} with a WAL flush per commit (the commit path's own guarantee).
 *
 * <p>The lake is a local directory that {@code moraine-verb-bench build} (the Rust half, in
 * moraine-store/native/oracle) created through the Rust implementation: {@code main.target} and N
 * unrelated one-column tables. Running both halves on copies of one lake gives both the same
 * catalog; {@code moraine-bench/verb-commit-bench.sh} does that and prints the ratios.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.VerbCommitBench <lake dir> <warmup
 * commits> <measured commits>}. Prints one line of {@code key=value} figures, per measured commit:
 * the committing thread's CPU time and the bytes it allocated on the heap, the process's CPU time
 * (every thread: the store's native threads, the JIT compiler and the collector too) and wall time,
 * the part of it on the store's native runtime ({@code runtime_threads_cpu_us}) and on the JIT
 * compilers and the collector ({@code jit_gc_threads_cpu_us}), told apart by thread name in {@code
 * /proc}; then a second line with the process's CPU per commit by thread name.
 */
public final class VerbCommitBench {
  private VerbCommitBench() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: VerbCommitBench <lake dir> <warmup commits> <measured commits>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int warmup = Integer.parseInt(args[1]);
    int samples = Integer.parseInt(args[2]);
    if (!Files.isDirectory(dir.resolve("manifest")) || warmup < 0 || samples <= 0) {
      System.err.println(
          "VerbCommitBench: "
              + dir
              + " must be a lake built by moraine-verb-bench, warmup >= 0 and samples > 0");
      System.exit(2);
    }
    // The store root is the lake, as the Rust implementation opens it. Neither side fsyncs: the
    // Rust object store's local directory does not, so ours is opened without it too.
    SlateStoreProvider provider = BenchStore.localWithoutFsync(dir);
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      CatalogSnapshot head = catalog.snapshot();
      TableInfo target =
          head.tableByName(0, "target")
              .orElseThrow(() -> new IllegalStateException("the lake has no table main.target"));
      long table = target.tableId();
      ColumnInfo column = head.columns(table).get(0);
      int tables = head.tablesIn(0).size();
      // Finding the target by name loaded every table into this head view, and later head views
      // carry what it loaded forward (re-reading only what commits change), so the measured
      // commits run as in an application that has listed its tables once. A stats update by id
      // reads none of them.
      run(catalog, table, column.columnId(), 0, warmup);

      java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      com.sun.management.ThreadMXBean heap = (com.sun.management.ThreadMXBean) threads;
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long[] ids = threads.getAllThreadIds();
      long[] jvmBefore = heap.getThreadCpuTime(ids);
      ProcThreadCpu perThread = ProcThreadCpu.read();
      long bytes = heap.getCurrentThreadAllocatedBytes();
      long process = os.getProcessCpuTime();
      long thread = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      run(catalog, table, column.columnId(), warmup, samples);
      double wall = System.nanoTime() - start;
      ProcThreadCpu perThreadAfter = ProcThreadCpu.read();
      double threadCpu = threads.getCurrentThreadCpuTime() - thread;
      double processCpu = os.getProcessCpuTime() - process;
      double allocated = heap.getCurrentThreadAllocatedBytes() - bytes;
      // Every thread the JVM lists (this one, the durability and log threads, the common pool): the
      // rest of the process is the JIT compilers and the collector, which the JVM does not list,
      // and the store's native runtime. Those are told apart by their kernel thread names.
      long[] jvmAfter = heap.getThreadCpuTime(ids);
      double jvmCpu = 0;
      for (int i = 0; i < ids.length; i++) {
        if (jvmBefore[i] >= 0 && jvmAfter[i] >= 0) {
          jvmCpu += jvmAfter[i] - jvmBefore[i];
        }
      }
      System.out.println(
          String.format(
              Locale.ROOT,
              "impl=java tables=%d commits=%d process_cpu_us=%.1f thread_cpu_us=%.1f wall_us=%.1f"
                  + " alloc_bytes=%.0f other_jvm_threads_cpu_us=%.1f unlisted_threads_cpu_us=%.1f"
                  + " runtime_threads_cpu_us=%.1f jit_gc_threads_cpu_us=%.1f",
              tables,
              samples,
              processCpu / samples / 1e3,
              threadCpu / samples / 1e3,
              wall / samples / 1e3,
              allocated / samples,
              (jvmCpu - threadCpu) / samples / 1e3,
              (processCpu - jvmCpu) / samples / 1e3,
              perThreadAfter.perCommitSince(perThread, samples, "moraine-slatedb"),
              perThreadAfter.perCommitSince(
                  perThread, samples, "C1 CompilerThre", "C2 CompilerThre", "GC Thread", "G1 ")));
      System.out.println(
          "impl=java per_thread " + perThreadAfter.perCommitSince(perThread, samples));
    }
  }

  /** {@code count} commits, numbered from {@code first}, each updating the target's statistics. */
  private static void run(Catalog catalog, long table, long column, int first, int count) {
    for (int i = first; i < first + count; i++) {
      long n = i;
      catalog.commit(
          tx -> {
            tx.updateTableStats(table, n, 128 + n);
            tx.updateColumnStats(
                table,
                column,
                Optional.of(false),
                Optional.empty(),
                Optional.of(Long.toString(n)),
                Optional.of(Long.toString(n + 1_000)),
                Optional.empty());
          });
    }
  }
}
