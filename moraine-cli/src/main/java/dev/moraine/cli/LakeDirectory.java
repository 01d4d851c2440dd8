package dev.moraine.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The checks made on a lake directory before anything is opened or written in it: the directory is
 * either absent under an existing parent (the demo creates it), empty, or holds a SlateDB database
 * at its root (docs/dump-format.md §11).
 */
final class LakeDirectory {

  private LakeDirectory() {}

  /**
   * Checks {@code dir} and creates it when absent.
   *
   * @return whether a database was already there
   * @throws CliFailure if the parent directory is missing, {@code dir} is not a directory, or it
   *     holds something other than a lake; nothing was created
   */
  static boolean prepare(Path dir) {
    Path absolute = dir.toAbsolutePath();
    if (!Files.exists(absolute)) {
      Path parent = absolute.getParent();
      if (parent == null || !Files.isDirectory(parent)) {
        throw new CliFailure(
            "cannot create a lake at " + dir + ": its parent directory does not exist");
      }
      try {
        Files.createDirectory(absolute);
      } catch (IOException e) {
        throw new CliFailure("cannot create a lake at " + dir + ": " + e.getMessage());
      }
      return false;
    }
    if (!Files.isDirectory(absolute)) {
      throw new CliFailure("no lake at " + dir + ": not a directory");
    }
    if (Files.isDirectory(absolute.resolve("manifest"))) {
      return true;
    }
    try (Stream<Path> entries = Files.list(absolute)) {
      if (entries.findAny().isPresent()) {
        throw new CliFailure(
            "no lake at "
                + dir
                + ": the directory holds other files and no SlateDB database (no folder "
                + absolute.resolve("manifest")
                + ")");
      }
    } catch (IOException e) {
      throw new CliFailure("cannot read " + dir + ": " + e.getMessage());
    }
    return false;
  }
}
