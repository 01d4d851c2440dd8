package dev.moraine.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A lake directory copied file by file, so that a test can change one copy and keep the other. */
final class LakeCopy {
  private LakeCopy() {}

  static void copy(Path from, Path to) throws IOException {
    try (var walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
