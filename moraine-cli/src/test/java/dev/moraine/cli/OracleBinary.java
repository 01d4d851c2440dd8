package dev.moraine.cli;

import java.nio.file.Path;

/** Where the Rust reference tool is: built by moraine-store's test build in this reactor. */
final class OracleBinary {
  private OracleBinary() {}

  /** The {@code moraine.oracle.binary} property, else moraine-store's cargo release directory. */
  static Path path() {
    String configured = System.getProperty("moraine.oracle.binary");
    return configured != null
        ? Path.of(configured)
        : Path.of("..", "moraine-store", "native", "target", "release", "moraine-oracle")
            .toAbsolutePath()
            .normalize();
  }
}
