package dev.moraine.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Where a command finds a lake: its local directory, and its database's path inside it. */
final class LakeOptions {
  @Parameters(index = "0", paramLabel = "<lake>", description = "Local directory holding the lake.")
  Path lake;

  @Option(
      names = "--path",
      description =
          "Path of the catalog's database inside the directory (default: the directory itself).",
      defaultValue = "")
  String storePath = "";

  /** The lake, opened read-only. */
  ReadOnlyLake open() {
    return ReadOnlyLake.open(lake, storePath);
  }
}
