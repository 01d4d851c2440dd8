package dev.moraine.cli;

import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
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
      description = "Path of the catalog store inside the directory (default: ${DEFAULT-VALUE}).",
      defaultValue = "catalog")
  String storePath;

  /** The store at the chosen location, with the WAL flush timer off: the caller flushes. */
  StoreConfig config() {
    return StoreConfig.of(ObjectStoreSpec.localDirectory(directory), storePath)
        .withSettings(StoreSettings.defaults().withFlushTimerOff());
  }
}
