package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The SlateDB and Rust implementation versions the library reports are those its native build pins
 * (the library's own version and format are checked through the CLI's {@code --version}).
 */
class VersionsTest {
  private static Path crateDirectory() {
    String sources = System.getProperty("moraine.native.sources");
    assertTrue(
        sources != null && !sources.isBlank(), "set -Dmoraine.native.sources (the pom does)");
    return Path.of(sources).getParent();
  }

  /** The version Cargo.lock resolves for {@code name}, the one package of that name. */
  private static String locked(String name) throws IOException {
    String lock = Files.readString(crateDirectory().resolve("Cargo.lock"));
    Matcher m =
        Pattern.compile(
                "\\[\\[package]]\\nname = \"" + Pattern.quote(name) + "\"\\nversion = \"([^\"]+)\"")
            .matcher(lock);
    assertTrue(m.find(), () -> name + " is not in Cargo.lock");
    String version = m.group(1);
    assertTrue(!m.find(), () -> name + " is locked at more than one version");
    return version;
  }

  @Test
  void slatedbIsTheLockedRelease() throws IOException {
    assertEquals(locked("slatedb"), Versions.SLATEDB);
  }

  @Test
  void theRustImplementationIsTheOneTheOraclePins() throws IOException {
    assertEquals(locked("moraine"), Versions.RUST_MORAINE);
    String oracle = Files.readString(crateDirectory().resolve("oracle").resolve("Cargo.toml"));
    assertTrue(oracle.contains("moraine = \"=" + Versions.RUST_MORAINE + "\""), oracle);
  }
}
