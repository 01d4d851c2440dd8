package dev.moraine.bench;

import static dev.moraine.bench.BenchOutput.latencies;
import static dev.moraine.bench.BenchOutput.print;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.SlateStoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Snapshot expiry of a long history, and what a concurrent writer sees meanwhile.
 *
 * <p>{@code ExpiryBench <lake dir> <snapshots>} builds a lake in a local directory (no fsync): a
 * table that takes one small data file per snapshot, in groups of 64 commits, and every 500
 * snapshots a table created, given a file and dropped, so the expiry has dropped tables to remove
 * and files to schedule. It then measures a writer committing one file at a time, alone for five
 * seconds, and again while {@code expireSnapshots(retainLast(1))} runs, and prints {@code
 * key=value} lines: the build time, the expiry's wall time, batches, records removed and files
 * scheduled, and the writer's commit latency (median, 99th percentile, maximum) alone and during
 * the expiry.
 */
public final class ExpiryBench {
  private static final int GROUP = 64;

  private ExpiryBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ExpiryBench <lake dir> <snapshots>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    int snapshots = Integer.parseInt(args[1]);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SlateStoreProvider provider = BenchStore.localWithoutFsync(dir);
    try (KvStore store = provider.openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withFlushSpacing(Duration.ZERO))) {
      long start = System.nanoTime();
      long table = build(catalog, snapshots);
      print("build_seconds", (System.nanoTime() - start) / 1e9);
      print("head", catalog.head().snapshotId());
      long[] alone = writer(catalog, table, null);
      print("head_at_expiry", catalog.head().snapshotId());
      AtomicBoolean running = new AtomicBoolean(true);
      ExpiryResult[] result = new ExpiryResult[1];
      long[] expirySeconds = new long[1];
      Thread expiry =
          new Thread(
              () -> {
                long t0 = System.nanoTime();
                result[0] = catalog.expireSnapshots(SnapshotExpiry.retainLast(1));
                expirySeconds[0] = System.nanoTime() - t0;
                running.set(false);
              });
      expiry.start();
      long[] during = writer(catalog, table, running);
      expiry.join();
      print("expiry_seconds", expirySeconds[0] / 1e9);
      print("expired_snapshots", result[0].expiredSnapshotIds().size());
      print("batches", result[0].batches());
      print("records_removed", result[0].recordsRemoved());
      print("files_scheduled", result[0].scheduledFileIds().size());
      latencies("alone", alone);
      latencies("during_expiry", during);
    }
  }

  private static long build(Catalog catalog, int snapshots) {
    long table =
        catalog
            .commitReturning(tx -> tx.createTable(0, "events", List.of(ColumnDef.of("v", "int64"))))
            .value();
    int made = 1;
    int n = 0;
    int nextDrop = 500;
    while (made < snapshots) {
      if (made >= nextDrop) {
        nextDrop += 500;
        int k = n++;
        long dropped =
            catalog
                .commitReturning(
                    tx -> tx.createTable(0, "gone" + k, List.of(ColumnDef.of("v", "int64"))))
                .value();
        catalog.commit(tx -> tx.registerDataFile(dropped, file("gone" + k)));
        catalog.commit(tx -> tx.dropTable(dropped));
        made += 3;
        continue;
      }
      List<CommitBody> group = new ArrayList<>();
      for (int i = 0; i < GROUP && made + i < snapshots; i++) {
        int k = n++;
        group.add(tx -> tx.registerDataFile(table, file("f" + k)));
      }
      catalog.commitGroup(group);
      made += group.size();
    }
    return table;
  }

  private static NewDataFile file(String name) {
    return NewDataFile.parquet(name + ".parquet", 10, 1_000, 200);
  }

  /**
   * Commits one file at a time, for five seconds when {@code until} is null, else while it holds
   * (and at least once), and returns each commit's latency in nanoseconds.
   */
  private static long[] writer(Catalog catalog, long table, AtomicBoolean until) {
    List<Long> took = new ArrayList<>();
    long end = System.nanoTime() + 5_000_000_000L;
    int n = 0;
    do {
      int k = n++;
      long t0 = System.nanoTime();
      catalog.commit(tx -> tx.registerDataFile(table, file("w" + k + "-" + t0)));
      took.add(System.nanoTime() - t0);
    } while (until == null ? System.nanoTime() < end : until.get());
    return took.stream().mapToLong(Long::longValue).toArray();
  }
}
