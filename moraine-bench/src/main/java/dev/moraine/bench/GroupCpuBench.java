package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.NewDataFile;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CPU and heap allocation per member of a batch: one caller hands in groups of k commits ({@code
 * Catalog.commitGroup}), each member registering one small data file into its own table, on the
 * in-memory store, flush spacing zero and publication off (the guarantee the Rust implementation's
 * group commit gives), and the harness divides the process's CPU time and the bytes every thread
 * allocated by the members landed. Warm-up groups run first and are not counted.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.GroupCpuBench [--groups 1,8,64]
 * [--warmup-members 20000] [--members 20000]}. Prints one line per group size: {@code group=k
 * members=... cpu_us_per_member=... alloc_bytes_per_member=...}.
 */
public final class GroupCpuBench {
  private GroupCpuBench() {}

  public static void main(String[] args) {
    List<Integer> groups = List.of(1, 8, 64);
    int warmup = 20_000;
    int members = 20_000;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--groups" ->
            groups = Arrays.stream(args[i + 1].split(",")).map(Integer::parseInt).toList();
        case "--warmup-members" -> warmup = Integer.parseInt(args[i + 1]);
        case "--members" -> members = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    System.out.println(
        "# nproc="
            + Runtime.getRuntime().availableProcessors()
            + " load="
            + GroupCommitBench.loadAverage());
    for (int k : groups) {
      try (BenchStore bench = BenchStore.open(BenchStore.Kind.MEMORY);
          Catalog catalog =
              Catalog.open(
                  bench.store(),
                  CatalogOptions.defaults()
                      .withFlushSpacing(Duration.ZERO)
                      .withCheckpointPublication(false))) {
        long[] tables = GroupCommitBench.createTables(catalog, k);
        int[] files = {0};
        run(catalog, tables, files, warmup / k);
        long cpu = GroupCommitBench.processCpuNanos();
        long alloc = allocated();
        int rounds = Math.max(1, members / k);
        run(catalog, tables, files, rounds);
        long landed = (long) rounds * k;
        System.out.printf(
            java.util.Locale.ROOT,
            "group=%d members=%d cpu_us_per_member=%.1f alloc_bytes_per_member=%d%n",
            k,
            landed,
            (GroupCommitBench.processCpuNanos() - cpu) / 1e3 / landed,
            (allocated() - alloc) / landed);
      }
    }
  }

  private static void run(Catalog catalog, long[] tables, int[] files, int rounds) {
    for (int r = 0; r < rounds; r++) {
      List<CommitBody> group = new ArrayList<>(tables.length);
      for (long table : tables) {
        String path = "f" + (files[0]++) + ".parquet";
        group.add(tx -> tx.registerDataFile(table, NewDataFile.parquet(path, 10, 900, 300)));
      }
      List<Long> ids = catalog.commitGroup(group);
      if (ids.size() != tables.length) {
        throw new IllegalStateException("a group of " + tables.length + " landed " + ids);
      }
    }
  }

  /** Bytes allocated on the heap so far by every live thread. */
  private static long allocated() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long a : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      if (a > 0) {
        total += a;
      }
    }
    return total;
  }
}
