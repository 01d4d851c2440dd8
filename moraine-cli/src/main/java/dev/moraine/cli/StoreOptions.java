package dev.moraine.cli;

import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the lake lives: shared by the commands that open one. */
final class StoreOptions {

  @Option(
      names = {"-d", "--dir"},
      description = "Local directory holding the lake (default: ${DEFAULT-VALUE}).",
      defaultValue = "moraine-demo-lake")
  Path directory;

  @Option(
      names = "--path",
      description =
          "Path of the catalog's database inside the directory (default: the directory itself).",
      defaultValue = "")
  String storePath;

  /** The store at the chosen location, with the WAL flush timer off: the caller flushes. */
  StoreConfig config() {
    return StoreConfig.of(ObjectStoreSpec.localDirectory(directory), storePath)
        .withSettings(StoreSettings.defaults().withFlushTimerOff());
  }

  /**
   * The store of an existing lake, for a command that only reads. Checks, before anything is
   * opened, that the directory exists and holds a SlateDB database at the store path (its {@code
   * manifest} folder): opening a local directory would otherwise create it, and a read-only command
   * creates nothing.
   *
   * @throws CliFailure when the directory or the database is missing
   */
  StoreConfig existingStoreConfig() {
    if (!Files.exists(directory)) {
      throw new CliFailure("no lake at " + directory + ": the directory does not exist");
    }
    if (!Files.isDirectory(directory)) {
      throw new CliFailure("no lake at " + directory + ": not a directory");
    }
    Path database = storePath.isEmpty() ? directory : directory.resolve(storePath);
    if (!Files.isDirectory(database.resolve("manifest"))) {
      throw new CliFailure(
          "no lake at "
              + directory
              + ": no SlateDB database at store path '"
              + storePath
              + "' (no folder "
              + database.resolve("manifest")
              + ")");
    }
    return config();
  }
}
