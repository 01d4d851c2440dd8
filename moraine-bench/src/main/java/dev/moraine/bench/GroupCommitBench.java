package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.store.FaultInjector;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Group commit under load: N threads commit as fast as they can through one catalog, each commit
 * registering one small data file, and the harness reports commits per second, commits per
 * write-ahead-log PUT (counted by the fault-injecting object store under the catalog, which injects
 * nothing unless asked), latency percentiles, checkpoint publications and the process's CPU per
 * commit, for every combination of object store, flush spacing, publication and concurrency it is
 * given. Each point runs on a fresh store: a warm-up, then a measured window.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.GroupCommitBench [--stores
 * memory,local,local-nofsync,memory-put25ms] [--spacings 0,10,100] [--publish on,off]
 * [--concurrency 1,2,4,...] [--tables shared|separate] [--door verb|staged] [--warmup 2] [--seconds
 * 5] [--progress S] [--csv FILE]}; {@code --progress S} prints each S-second interval of the
 * measured window. {@code --door staged} commits each file as DuckLake's rows through {@code
 * Catalog.commitStaged} ({@link StagedAppend}), authored against the snapshot the committer read
 * just before, instead of through the verb door. The stores {@code s3} and {@code s3-put25ms} are
 * an S3-compatible server named by system properties (see {@link BenchStore.Kind#S3}; {@code
 * moraine-bench/group-commit-bench.sh} starts S3Proxy for them). Prints one progress line per point
 * on standard error and one CSV row per point (with a header) on standard output or into {@code
 * --csv}.
 */
public final class GroupCommitBench {
  private GroupCommitBench() {}

  /** One measured point. */
  record Point(
      String store,
      long spacingMillis,
      boolean publish,
      int concurrency,
      String tables,
      long commits,
      double seconds,
      long walPuts,
      long publications,
      double p50Millis,
      double p99Millis,
      double cpuMicrosPerCommit) {
    double commitsPerSecond() {
      return commits / seconds;
    }

    double commitsPerPut() {
      return walPuts == 0 ? 0 : (double) commits / walPuts;
    }

    static String header() {
      return "store,spacing_ms,publish,concurrency,tables,commits,seconds,commits_per_s,wal_puts,"
          + "commits_per_put,publications,p50_ms,p99_ms,cpu_us_per_commit";
    }

    String csv() {
      return String.format(
          java.util.Locale.ROOT,
          "%s,%d,%s,%d,%s,%d,%.3f,%.1f,%d,%.2f,%d,%.3f,%.3f,%.1f",
          store,
          spacingMillis,
          publish ? "on" : "off",
          concurrency,
          tables,
          commits,
          seconds,
          commitsPerSecond(),
          walPuts,
          commitsPerPut(),
          publications,
          p50Millis,
          p99Millis,
          cpuMicrosPerCommit);
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    List<Point> points = new ArrayList<>();
    PrintStream out = o.csv == null ? System.out : new PrintStream(Files.newOutputStream(o.csv));
    out.println(Point.header());
    System.err.printf(
        "# %s nproc=%d load=%s%n",
        Instant.now(), Runtime.getRuntime().availableProcessors(), loadAverage());
    for (String store : o.stores) {
      for (long spacing : o.spacings) {
        for (boolean publish : o.publish) {
          for (int n : o.concurrency) {
            Point p = run(store, spacing, publish, n, o);
            points.add(p);
            out.println(p.csv());
            out.flush();
            System.err.printf(
                java.util.Locale.ROOT,
                "%-14s spacing %3d ms publish %-3s %4d committers: %8.0f commits/s, %6.1f per PUT"
                    + " (%.2f x concurrency), p50 %.2f ms p99 %.2f ms, %.0f us CPU a commit%n",
                store,
                spacing,
                publish ? "on" : "off",
                n,
                p.commitsPerSecond(),
                p.commitsPerPut(),
                p.commitsPerPut() / n,
                p.p50Millis(),
                p.p99Millis(),
                p.cpuMicrosPerCommit());
          }
        }
      }
    }
    if (o.csv != null) {
      out.close();
    }
  }

  private static Point run(String storeName, long spacing, boolean publish, int n, Options o)
      throws Exception {
    try (FaultInjector injector = new FaultInjector();
        BenchStore bench = BenchStore.open(storeName, injector)) {
      CatalogOptions options =
          CatalogOptions.defaults()
              .withFlushSpacing(Duration.ofMillis(spacing))
              .withCheckpointPublication(publish);
      try (Catalog catalog = Catalog.open(bench.store(), options)) {
        long[] tables = createTables(catalog, o.separate ? n : 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicLong measured = new AtomicLong();
        long[][] latencies = new long[n][];
        int[] counts = new int[n];
        CountDownLatch done = new CountDownLatch(n);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
          int me = t;
          long table = tables[o.separate ? t : 0];
          latencies[t] = new long[1 << 16];
          Thread thread =
              new Thread(
                  () -> {
                    try {
                      long k = 0;
                      while (!stop.get()) {
                        String path = "f-" + me + "-" + (k++) + ".parquet";
                        long start = System.nanoTime();
                        if (o.staged) {
                          // Authored against the snapshot read now, as DuckLake does; rebased
                          // by the door when others land first.
                          catalog.commitStaged(
                              StagedAppend.of(catalog.snapshot(), table, path, 10, 900));
                        } else {
                          CommitBody body =
                              tx ->
                                  tx.registerDataFile(
                                      table, NewDataFile.parquet(path, 10, 900, 300));
                          catalog.commit(body);
                        }
                        long took = System.nanoTime() - start;
                        if (measuring.get()) {
                          measured.incrementAndGet();
                          if (counts[me] == latencies[me].length) {
                            latencies[me] = Arrays.copyOf(latencies[me], counts[me] * 2);
                          }
                          latencies[me][counts[me]++] = took;
                        }
                      }
                    } finally {
                      done.countDown();
                    }
                  },
                  "committer-" + t);
          thread.setDaemon(true);
          threads.add(thread);
          thread.start();
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds));
        CommitStatistics before = catalog.commitStatistics();
        long putsBefore = injector.putCount(FaultInjector.WAL);
        long cpuBefore = processCpuNanos();
        long startNanos = System.nanoTime();
        measuring.set(true);
        watchWindow(o, startNanos, measured, injector, catalog);
        measuring.set(false);
        long endNanos = System.nanoTime();
        long cpuAfter = processCpuNanos();
        long putsAfter = injector.putCount(FaultInjector.WAL);
        CommitStatistics after = catalog.commitStatistics();
        stop.set(true);
        if (!done.await(2, TimeUnit.MINUTES)) {
          throw new IllegalStateException("committers did not stop");
        }
        long commits = measured.get();
        long[] all = merge(latencies, counts);
        return new Point(
            storeName,
            spacing,
            publish,
            n,
            o.separate ? "separate" : "shared",
            commits,
            (endNanos - startNanos) / 1e9,
            putsAfter - putsBefore,
            after.checkpointsPublished() - before.checkpointsPublished(),
            percentile(all, 0.50) / 1e6,
            percentile(all, 0.99) / 1e6,
            commits == 0 ? 0 : (cpuAfter - cpuBefore) / 1e3 / commits);
      }
    }
  }

  /**
   * Sleeps through the measured window. With {@code --progress s}, wakes every s seconds and prints
   * what the last interval did (commits/s, commits per WAL PUT, checkpoints published), so a long
   * run shows whether its rate holds.
   */
  private static void watchWindow(
      Options o, long startNanos, AtomicLong measured, FaultInjector injector, Catalog catalog)
      throws InterruptedException {
    long endNanos = startNanos + TimeUnit.SECONDS.toNanos(o.seconds);
    if (o.progressSeconds <= 0) {
      Thread.sleep(TimeUnit.SECONDS.toMillis(o.seconds));
      return;
    }
    long commits = measured.get();
    long puts = injector.putCount(FaultInjector.WAL);
    long published = catalog.commitStatistics().checkpointsPublished();
    long at = System.nanoTime();
    while (at < endNanos) {
      long next = Math.min(endNanos, at + TimeUnit.SECONDS.toNanos(o.progressSeconds));
      TimeUnit.NANOSECONDS.sleep(next - at);
      long nowNanos = System.nanoTime();
      long c = measured.get();
      long p = injector.putCount(FaultInjector.WAL);
      long pub = catalog.commitStatistics().checkpointsPublished();
      double secs = (nowNanos - at) / 1e9;
      System.err.printf(
          java.util.Locale.ROOT,
          "  %6.0f s: %8.0f commits/s, %6.1f per PUT, %6.0f publications/s, load %s%n",
          (nowNanos - startNanos) / 1e9,
          (c - commits) / secs,
          p == puts ? 0.0 : (double) (c - commits) / (p - puts),
          (pub - published) / secs,
          loadAverage().split(" ")[0]);
      commits = c;
      puts = p;
      published = pub;
      at = nowNanos;
    }
  }

  /** Creates {@code count} tables {@code t0, t1, ...} of one int64 column in one group. */
  static long[] createTables(Catalog catalog, int count) {
    long[] ids = new long[count];
    List<CommitBody> group = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int k = i;
      group.add(tx -> ids[k] = tx.createTable(0, "t" + k, List.of(ColumnDef.of("x", "int64"))));
    }
    catalog.commitGroup(group);
    return ids;
  }

  private static long[] merge(long[][] parts, int[] counts) {
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    for (int i = 0; i < parts.length; i++) {
      System.arraycopy(parts[i], 0, all, at, counts[i]);
      at += counts[i];
    }
    Arrays.sort(all);
    return all;
  }

  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    } catch (UncheckedIOException e) {
      return "unknown";
    }
  }

  /** The command line. */
  private static final class Options {
    List<String> stores = List.of("memory", "local", "local-nofsync", "memory-put25ms");
    List<Long> spacings = List.of(0L, 10L, 100L);
    List<Boolean> publish = List.of(true, false);
    List<Integer> concurrency = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256);
    boolean separate;
    boolean staged;
    long warmupSeconds = 2;
    long seconds = 5;
    long progressSeconds;
    Path csv;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--stores" -> o.stores = List.of(require(value, args[i]).split(","));
          case "--spacings" -> o.spacings = longs(require(value, args[i]));
          case "--publish" -> o.publish = onOff(require(value, args[i]));
          case "--concurrency" -> o.concurrency = ints(require(value, args[i]));
          case "--tables" -> o.separate = require(value, args[i]).equals("separate");
          case "--door" -> o.staged = require(value, args[i]).equals("staged");
          case "--warmup" -> o.warmupSeconds = Long.parseLong(require(value, args[i]));
          case "--seconds" -> o.seconds = Long.parseLong(require(value, args[i]));
          case "--progress" -> o.progressSeconds = Long.parseLong(require(value, args[i]));
          case "--csv" -> o.csv = Path.of(require(value, args[i]));
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
        i++;
      }
      return o;
    }

    private static String require(String value, String option) {
      if (value == null) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return value;
    }

    private static List<Long> longs(String csv) {
      return Arrays.stream(csv.split(",")).map(Long::parseLong).toList();
    }

    private static List<Integer> ints(String csv) {
      return Arrays.stream(csv.split(",")).map(Integer::parseInt).toList();
    }

    private static List<Boolean> onOff(String csv) {
      return Arrays.stream(csv.split(",")).map(v -> v.equals("on")).toList();
    }
  }
}
