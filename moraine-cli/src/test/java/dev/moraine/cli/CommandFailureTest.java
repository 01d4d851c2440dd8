package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failing commands explain themselves in one line, exit non-zero, and create nothing. */
class CommandFailureTest {

  @TempDir Path dir;

  private static void assertOneLine(Run run, String expectedPart) {
    assertEquals(FailureReport.FAILED, run.status(), run.err());
    String[] lines = run.err().strip().split("\\R");
    assertEquals(1, lines.length, run.err());
    assertTrue(lines[0].startsWith("moraine scan: "), lines[0]);
    assertTrue(lines[0].contains(expectedPart), lines[0]);
    assertFalse(run.err().contains("\tat "), run.err());
  }

  private static long entriesUnder(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.count() - 1;
    }
  }

  @Test
  void scan_ofAMissingDirectory_isOneLineAndCreatesNothing() {
    Path missing = dir.resolve("no/such/dir");
    Run run = run("scan", "-d", missing.toString());
    assertOneLine(run, "the directory does not exist");
    assertFalse(Files.exists(missing));
    assertFalse(Files.exists(dir.resolve("no")));
  }

  @Test
  void scan_ofADirectoryWithoutAStore_isOneLineAndWritesNothing() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Run run = run("scan", "-d", empty.toString());
    assertOneLine(run, "no SlateDB database");
    assertEquals(0, entriesUnder(empty));
  }

  @Test
  void scan_ofAFile_isOneLine() throws IOException {
    Path file = Files.writeString(dir.resolve("file"), "not a lake");
    assertOneLine(run("scan", "-d", file.toString()), "not a directory");
  }

  @Test
  void scan_withAPrefixThatIsNotHex_isOneLine() {
    assertEquals(0, run("demo", "-d", dir.toString()).status());
    assertOneLine(run("scan", "-d", dir.toString(), "--prefix", "zz"), "hex digits");
  }

  @Test
  void scan_ofAnExistingStore_writesNothing() throws IOException {
    assertEquals(0, run("demo", "-d", dir.toString()).status());
    long before = entriesUnder(dir);
    Run run = run("scan", "-d", dir.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(before, entriesUnder(dir));
  }

  @Test
  void anUnknownOption_isAUsageError() {
    Run run = run("scan", "--no-such-option");
    assertEquals(2, run.status());
    assertTrue(run.err().contains("Unknown option"), run.err());
  }
}
