package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.duckdb.export.DuckLakeExport;
import dev.moraine.duckdb.export.ExportFailedException;
import dev.moraine.duckdb.export.ExportProgress;
import dev.moraine.duckdb.export.ExportRefusedException;
import dev.moraine.duckdb.export.ExportResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Writes a lake's catalog, at its head or at one snapshot, as a stock DuckLake catalog in a DuckDB
 * file that DuckDB attaches; run again into the same file, it applies only what changed. Read-only
 * on the lake: it is opened through a latest-following reader. The file is the only thing written.
 */
@Command(
    name = "export",
    description =
        "Write a lake's catalog as a DuckLake catalog in a DuckDB file, for DuckDB to attach;"
            + " run again to bring the file up to date. Read-only on the lake.")
final class ExportCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "<lake>", description = "Local directory holding the lake.")
  Path lake;

  @Parameters(
      index = "1",
      paramLabel = "<file>",
      description = "The DuckDB file: created if absent, or an earlier export of this lake.")
  Path file;

  @Option(
      names = "--at",
      paramLabel = "<snapshot id>",
      description = "Export this snapshot instead of the head.")
  String at;

  @Option(
      names = "--path",
      description =
          "Path of the catalog's database inside the directory (default: the directory itself).",
      defaultValue = "")
  String storePath;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Long snapshotId = at == null ? null : SnapshotIds.parse("--at", at);
    ProgressBar bar = new ProgressBar(spec.commandLine().getErr());
    ExportResult result;
    String dataPath;
    try (ReadOnlyLake opened = ReadOnlyLake.open(lake, storePath)) {
      ReadOnlyCatalog catalog = opened.catalog();
      CatalogSnapshot snapshot =
          snapshotId == null ? catalog.snapshot() : catalog.snapshotAt(snapshotId);
      dataPath = snapshot.dataPath().orElse("<the lake's data path>");
      result = DuckLakeExport.export(catalog, snapshot, file, bar);
    } catch (NotFoundException | ExportRefusedException | ExportFailedException refused) {
      bar.clear();
      throw new CliFailure(refused.getMessage());
    }
    bar.clear();
    PrintWriter out = spec.commandLine().getOut();
    if (result.upToDate()) {
      out.println(
          result.file() + " already holds snapshot " + Long.toUnsignedString(result.snapshotId()));
    } else {
      out.println(
          (result.created() ? "created " : "updated ")
              + result.file()
              + " at snapshot "
              + Long.toUnsignedString(result.snapshotId())
              + (result.created()
                  ? ""
                  : " (from snapshot "
                      + Long.toUnsignedString(result.previousSnapshot().getAsLong())
                      + ")")
              + ": "
              + result.rowsInserted()
              + " rows written, "
              + result.rowsDeleted()
              + " removed");
    }
    // DuckLake takes the data path the catalog records; DATA_PATH is only needed (with
    // OVERRIDE_DATA_PATH) when the data files have moved since.
    out.println(
        "read it in DuckDB: ATTACH 'ducklake:"
            + result.file()
            + "' AS lake (READ_ONLY); -- its data path: "
            + dataPath);
    out.flush();
    return 0;
  }

  /**
   * A progress bar on standard error, drawn only when standard error is a terminal and the export
   * writes enough tables to take a while; it redraws one line in place.
   */
  static final class ProgressBar implements ExportProgress {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final boolean enabled;
    private boolean drawn;

    ProgressBar(PrintWriter err) {
      this.err = err;
      this.enabled = System.console() != null;
    }

    @Override
    public void tableDone(String table, int done, int total) {
      if (!enabled || total < 40) {
        return;
      }
      int filled = (int) ((long) WIDTH * done / total);
      err.print(
          "\rexporting ["
              + "#".repeat(filled)
              + " ".repeat(WIDTH - filled)
              + "] "
              + done
              + "/"
              + total
              + " tables");
      err.flush();
      drawn = true;
    }

    void clear() {
      if (drawn) {
        err.print("\r" + " ".repeat(WIDTH + 40) + "\r");
        err.flush();
        drawn = false;
      }
    }
  }
}
