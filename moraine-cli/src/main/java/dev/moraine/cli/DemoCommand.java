package dev.moraine.cli;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.UnsupportedFormatException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The demo: a DuckLake catalog in a local directory, real Parquet files registered into one table
 * by concurrent committers, the snapshot log, and the lake reopened to show it all persisted.
 *
 * <p>Every expectation it checks is printed; the run succeeds only when all {@link #EXPECTATIONS}
 * were checked and held. Bad input (a missing parent directory, a directory holding something else,
 * a lake of another format) is a one-line {@link CliFailure}.
 */
@Command(
    name = "demo",
    description =
        "Create a lake in a local directory, register Parquet files from concurrent threads,"
            + " print the snapshot log and reopen the lake.")
final class DemoCommand implements Callable<Integer> {

  /** How many expectations a complete run checks. */
  static final int EXPECTATIONS = 9;

  @Option(
      names = {"-d", "--dir"},
      description = "Local directory of the lake (default: ${DEFAULT-VALUE}).",
      defaultValue = "moraine-demo-lake")
  Path directory;

  @Option(
      names = "--files",
      description = "Parquet files to write and register (default: ${DEFAULT-VALUE}).",
      defaultValue = "256")
  int files;

  @Option(
      names = "--rows",
      description = "Rows per file (default: ${DEFAULT-VALUE}).",
      defaultValue = "1000")
  int rows;

  @Option(
      names = "--threads",
      description =
          "Concurrent committers, whose commits share batches and log flushes (default:"
              + " ${DEFAULT-VALUE}).",
      defaultValue = "64")
  int threads;

  @Spec CommandSpec spec;

  private PrintWriter out;
  private int checked;
  private int failures;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    if (files < 1 || rows < 1 || threads < 1) {
      throw new CliFailure("--files, --rows and --threads must be at least 1");
    }
    boolean existed = LakeDirectory.prepare(directory);
    Path dir = directory.toAbsolutePath();
    Path dataDir = dir.resolve("data");
    StoreConfig config =
        StoreConfig.of(ObjectStoreSpec.localDirectory(dir), "")
            .withSettings(StoreSettings.defaults().withFlushTimerOff());
    SlateStoreProvider provider = new SlateStoreProvider(config);
    out.printf("Moraine demo: %s lake in %s%n", existed ? "existing" : "new", dir);

    List<SnapshotInfo> log;
    List<DataFileInfo> dataFiles;
    List<TableInfo> tables;
    try (KvStore store = provider.openWriter();
        Catalog catalog =
            openCatalog(store, CatalogOptions.defaults().withDataPath(dataDir + "/"))) {
      step("1. the table demo.events (id int64, city varchar, amount double)");
      long tableId = ensureTable(catalog);
      CatalogSnapshot before = catalog.snapshot();
      int filesBefore = before.dataFiles(tableId).size();
      int snapshotsBefore = before.snapshotLog().size();
      long rowsBefore = before.tableStats(tableId).orElseThrow().recordCount();
      out.printf(
          "   table id %d, %d file(s) and %d snapshot(s) before this run%n",
          tableId, filesBefore, snapshotsBefore);

      step(
          String.format(
              "2. %d Parquet files of %d rows, registered by %d concurrent committers",
              files, rows, threads));
      Path tableDir = dataDir.resolve("demo").resolve("events");
      Files.createDirectories(tableDir);
      String runId = Long.toString(System.currentTimeMillis(), 36);
      CommitStatistics statsBefore = catalog.commitStatistics();
      List<DemoLoad.Registered> landed =
          new DemoLoad(catalog, tableId, tableDir, out).run(runId, files, rows, threads);
      CommitStatistics statsAfter = catalog.commitStatistics();
      long commits = statsAfter.commitsLanded() - statsBefore.commitsLanded();
      long flushes = statsAfter.walFlushes() - statsBefore.walFlushes();
      out.printf(
          "   %d commits in %d log flushes (%.1f commits per WAL PUT), %d checkpoints published%n",
          commits,
          flushes,
          flushes == 0 ? 0.0 : (double) commits / flushes,
          statsAfter.checkpointsPublished() - statsBefore.checkpointsPublished());

      CatalogSnapshot after = catalog.snapshot();
      log = after.snapshotLog();
      dataFiles = after.dataFiles(tableId);
      tables = after.tables();

      step("3. the snapshot log");
      printLog(log);

      step("4. what the catalog holds");
      Set<Long> snapshotIds = new HashSet<>();
      landed.forEach(r -> snapshotIds.add(r.snapshotId()));
      check(
          snapshotIds.size() == files,
          files + " commits minted " + snapshotIds.size() + " distinct snapshots");
      check(
          dataFiles.size() == filesBefore + files,
          "the table holds " + dataFiles.size() + " data files");
      long rowsNow = after.tableStats(tableId).orElseThrow().recordCount();
      check(rowsNow == rowsBefore + (long) files * rows, "the table's record count is " + rowsNow);
      check(denseRowIds(dataFiles, rowsNow), "row-id ranges are dense and non-overlapping");
      check(
          statsMatchFooters(after, tableId, landed),
          "each file's column statistics are those of its Parquet footer");
      check(
          log.size() == snapshotsBefore + files, "the snapshot log has " + log.size() + " entries");
    }

    step("5. reopen the lake (read-only) and read it again");
    try (KvReader reader = provider.openReader(ReaderMode.followLatest());
        ReadOnlyCatalog reopened = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      CatalogSnapshot again = reopened.snapshot();
      check(again.tables().equals(tables), "the same " + tables.size() + " table(s)");
      long tableId = tables.get(0).tableId();
      check(
          again.dataFiles(tableId).equals(dataFiles),
          "the same " + dataFiles.size() + " data files with the same row-id ranges");
      check(again.snapshotLog().equals(log), "the same snapshot log of " + log.size() + " entries");
    }

    boolean ok = failures == 0 && checked == EXPECTATIONS;
    out.printf(
        "%n%s: %d of %d expectations held%n",
        ok ? "OK" : "FAILED", checked - failures, EXPECTATIONS);
    out.flush();
    return ok ? 0 : 1;
  }

  private static Catalog openCatalog(KvStore store, CatalogOptions options) {
    try {
      return Catalog.open(store, options);
    } catch (UnsupportedFormatException | CorruptionException foreign) {
      throw new CliFailure("not a lake this version opens: " + foreign.getMessage());
    }
  }

  /** The table demo.events, created (with its schema) in one commit when missing. */
  private static long ensureTable(Catalog catalog) {
    catalog.commit(
        tx -> {
          long schema =
              tx.schemaByName("demo")
                  .map(SchemaInfo::schemaId)
                  .orElseGet(() -> tx.createSchema("demo"));
          if (tx.tableByName(schema, "events").isEmpty()) {
            tx.createTable(
                schema,
                "events",
                List.of(
                    ColumnDef.of("id", "int64").notNull(),
                    ColumnDef.of("city", "varchar"),
                    ColumnDef.of("amount", "float64").notNull()));
          }
        });
    CatalogSnapshot head = catalog.snapshot();
    long schema = head.schemaByName("demo").orElseThrow().schemaId();
    return head.tableByName(schema, "events").orElseThrow().tableId();
  }

  /** The first and last {@link #LOG_ENDS} entries of the log, with a count of those between. */
  private void printLog(List<SnapshotInfo> log) {
    out.printf("   %-8s %-27s %-14s %s%n", "snapshot", "time", "schema_version", "changes_made");
    for (int i = 0; i < log.size(); i++) {
      if (log.size() > 2 * LOG_ENDS && i == LOG_ENDS) {
        out.printf("   ... %d more ...%n", log.size() - 2 * LOG_ENDS);
        i = log.size() - LOG_ENDS;
      }
      SnapshotInfo s = log.get(i);
      out.printf(
          "   %-8d %-27s %-14d %s%n", s.snapshotId(), s.time(), s.schemaVersion(), s.changesMade());
    }
  }

  /** How many entries of each end of the snapshot log the demo prints. */
  static final int LOG_ENDS = 5;

  /** Sorted by start, each file's range begins where the previous ended, from 0 to {@code rows}. */
  static boolean denseRowIds(List<DataFileInfo> files, long rows) {
    List<DataFileInfo> sorted =
        files.stream().sorted(Comparator.comparingLong(f -> f.rowIdStart().orElse(-1))).toList();
    long next = 0;
    for (DataFileInfo f : sorted) {
      if (f.rowIdStart().isEmpty() || f.rowIdStart().getAsLong() != next) {
        return false;
      }
      next += f.recordCount();
    }
    return next == rows && !files.isEmpty();
  }

  private static boolean statsMatchFooters(
      CatalogSnapshot snapshot, long tableId, List<DemoLoad.Registered> landed) {
    List<FileColumnStats> all = snapshot.fileColumnStats(tableId);
    int compared = 0;
    for (DemoLoad.Registered r : landed) {
      List<FileColumnStats> mine =
          all.stream().filter(s -> s.dataFileId() == r.dataFileId()).toList();
      if (mine.size() != r.footer().columns().size()) {
        return false;
      }
      for (FileColumnStats s : mine) {
        String name =
            snapshot.columns(tableId).stream()
                .filter(c -> c.columnId() == s.columnId())
                .findFirst()
                .orElseThrow()
                .name();
        FooterStats.Column f = r.footer().columns().get(name);
        if (f == null
            || s.valueCount() != f.valueCount() - f.nullCount()
            || s.nullCount() != f.nullCount()
            || !s.minValue().equals(Optional.ofNullable(f.min()))
            || !s.maxValue().equals(Optional.ofNullable(f.max()))) {
          return false;
        }
        compared++;
      }
    }
    return compared == landed.size() * DemoParquetWriter.SCHEMA.getFieldCount();
  }

  private void step(String title) {
    out.printf("%n%s%n", title);
  }

  private void check(boolean holds, String expectation) {
    checked++;
    out.printf("   [%s] %s%n", holds ? "ok" : "FAILED", expectation);
    if (!holds) {
      failures++;
    }
  }
}
