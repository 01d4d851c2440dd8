package dev.moraine.cli;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's load: {@code files} Parquet files written and registered by {@code threads} concurrent
 * committers, one commit per file, each with the statistics read from the file's own footer.
 */
final class DemoLoad {

  /** What one registration landed: the file, its footer, its snapshot and its data file id. */
  record Registered(String name, FooterStats footer, long snapshotId, long dataFileId) {}

  private final Catalog catalog;
  private final long tableId;
  private final Path tableDir;
  private final PrintWriter out;

  DemoLoad(Catalog catalog, long tableId, Path tableDir, PrintWriter out) {
    this.catalog = catalog;
    this.tableId = tableId;
    this.tableDir = tableDir;
    this.out = out;
  }

  /**
   * Writes and registers the files, printing a progress line every {@code files / 8} commits.
   *
   * @return the registrations, in file order
   * @throws CliFailure if a worker could not write or read its Parquet file; the files registered
   *     before it stay registered, and the workers still running are interrupted
   * @throws RuntimeException a worker's commit failure as the catalog raised it (a {@code
   *     MoraineException}), with the same consequences
   */
  List<Registered> run(String runId, int files, int rows, int threads) throws InterruptedException {
    int step = Math.max(1, files / 8);
    AtomicInteger done = new AtomicInteger();
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Registered>> pending = new ArrayList<>();
      for (int n = 0; n < files; n++) {
        int file = n;
        pending.add(
            pool.submit(
                () -> {
                  Registered r = writeAndRegister(runId, file, rows);
                  int count = done.incrementAndGet();
                  if (count % step == 0 || count == files) {
                    // PrintWriter's methods lock the writer: lines from workers never interleave.
                    out.printf(
                        "   %d/%d files committed (%.1f s)%n",
                        count, files, (System.nanoTime() - started) / 1e9);
                    out.flush();
                  }
                  return r;
                }));
      }
      List<Registered> landed = new ArrayList<>(files);
      for (Future<Registered> f : pending) {
        try {
          landed.add(f.get());
        } catch (ExecutionException failed) {
          throw unwrap(failed.getCause());
        }
      }
      return landed;
    } finally {
      pool.shutdownNow();
    }
  }

  private static RuntimeException unwrap(Throwable cause) {
    if (cause instanceof RuntimeException unchecked) {
      return unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new CliFailure("a Parquet file could not be written or read: " + cause.getMessage());
  }

  private Registered writeAndRegister(String runId, int n, int rows) throws IOException {
    String name = String.format("part-%s-%05d.parquet", runId, n);
    Path path = tableDir.resolve(name);
    DemoParquetWriter.write(path, n, rows);
    FooterStats footer = FooterStats.read(path);
    long[] fileId = new long[1];
    // The closure may run again after a benign race: it only reads the transaction and stages.
    long snapshot =
        catalog.commit(
            tx -> {
              List<NewFileColumnStats> stats = footer.registrationStats(tx.columns(tableId));
              fileId[0] =
                  tx.registerDataFile(
                      tableId,
                      NewDataFile.parquet(
                              name,
                              footer.recordCount(),
                              footer.fileSizeBytes(),
                              footer.footerSize())
                          .withColumnStats(stats));
            });
    return new Registered(name, footer, snapshot, fileId[0]);
  }
}
