package dev.moraine.cli;

import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.dump.UnrenderableValueException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Prints the {@code moraine-dump-v1} JSON of a lake's catalog (docs/dump-format.md) at every
 * snapshot or at one. Read-only: the lake is opened through a latest-following reader, which writes
 * nothing to the store, and a lake that is not there is reported before anything is opened.
 */
@Command(
    name = "dump",
    description =
        "Print a lake's catalog as JSON (moraine-dump-v1) at every snapshot, or at one; read-only.")
final class DumpCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "<lake>", description = "Local directory holding the lake.")
  Path lake;

  @Option(
      names = "--at",
      paramLabel = "<snapshot id>",
      description = "Only this snapshot (it must be at or below the head and not expired).")
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
    String json;
    try (ReadOnlyLake opened = ReadOnlyLake.open(lake, storePath)) {
      ReadOnlyCatalog catalog = opened.catalog();
      // The whole document is rendered before any of it is printed: a failure prints no JSON.
      json =
          snapshotId == null
              ? CatalogDump.allToString(catalog)
              : CatalogDump.atToString(catalog, snapshotId);
    } catch (NotFoundException | UnrenderableValueException refused) {
      throw new CliFailure(lake + ": " + refused.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json);
    out.flush();
    return 0;
  }
}
