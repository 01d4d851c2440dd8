package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DemoCommandTest {

  @TempDir Path dir;

  private int run(StringWriter out, String... args) {
    CommandLine cli = new CommandLine(new MoraineCli());
    cli.setOut(new PrintWriter(out));
    return cli.execute(args);
  }

  @Test
  void demo_holdsEveryExpectationOnAFreshDirectory() {
    StringWriter out = new StringWriter();
    int status = run(out, "demo", "--dir", dir.toString());
    assertEquals(0, status, out.toString());
    assertTrue(out.toString().contains("OK: 0 failed"), out.toString());
  }

  @Test
  void demo_runsAgainOnTheSameDirectory() {
    assertEquals(0, run(new StringWriter(), "demo", "--dir", dir.toString()));
    StringWriter out = new StringWriter();
    assertEquals(0, run(out, "demo", "--dir", dir.toString()), out.toString());
  }

  @Test
  void scan_listsWhatTheDemoWrote() {
    assertEquals(0, run(new StringWriter(), "demo", "--dir", dir.toString()));
    StringWriter out = new StringWriter();
    // "demo/" in hex
    assertEquals(0, run(out, "scan", "--dir", dir.toString(), "--prefix", "64656d6f2f"));
    assertTrue(out.toString().contains("keys"), out.toString());
    assertTrue(!out.toString().contains("\n0 keys"), out.toString());
  }
}
