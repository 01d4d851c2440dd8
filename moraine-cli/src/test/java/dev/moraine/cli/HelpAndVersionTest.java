package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.store.Versions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Help on every level, the version line, and a suggestion for a misspelt subcommand. */
class HelpAndVersionTest {

  @ParameterizedTest
  @CsvSource({"demo,--files", "dump,--at", "scan,--prefix"})
  void subcommandHelp_printsItsUsageAndExitsZero(String subcommand, String oneOfItsOptions) {
    for (String flag : new String[] {"--help", "-h"}) {
      Run run = run(subcommand, flag);
      assertEquals(0, run.status(), run.err());
      assertEquals("", run.err());
      assertTrue(run.out().startsWith("Usage: moraine " + subcommand + " "), run.out());
      assertTrue(run.out().contains(oneOfItsOptions), run.out());
      assertTrue(run.out().contains("--version"), run.out());
    }
  }

  @Test
  void topLevelHelp_listsTheSubcommands() {
    Run run = run("--help");
    assertEquals(0, run.status(), run.err());
    for (String subcommand : new String[] {"demo", "dump", "scan"}) {
      assertTrue(run.out().contains("  " + subcommand + " "), run.out());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "-V", "demo --version", "dump -V"})
  void version_namesTheLibraryTheFormatAndSlateDb(String args) {
    Run run = run(args.split(" "));
    assertEquals(0, run.status(), run.err());
    String[] lines = run.out().strip().split("\\R");
    assertEquals(2, lines.length, run.out());
    assertEquals("moraine-java " + projectVersion(), lines[0]);
    assertEquals(Versions.library(), lines[0]);
    assertEquals(
        "writes lake format 9 (the format of the Rust moraine 0.7.0) on SlateDB 0.16.0", lines[1]);
  }

  @ParameterizedTest
  @CsvSource({"dmeo,demo", "dupm,dump", "scna,scan", "dum,dump"})
  void aMisspeltSubcommand_isAUsageErrorThatSuggestsTheNearest(String typed, String meant) {
    Run run = run(typed);
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().contains("'" + typed + "'"), run.err());
    assertTrue(run.err().contains("Did you mean: moraine " + meant), run.err());
  }

  @Test
  void aMisspeltOption_getsPicocliSuggestionAndNoSubcommandIsGuessed() {
    Run run = run("demo", "--file", "3");
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().contains("--files"), run.err());
    assertFalse(run.err().contains("Did you mean: moraine"), run.err());
  }

  @Test
  void somethingFarFromEverySubcommand_isAUsageErrorWithTheUsage() {
    Run run = run("export");
    assertEquals(2, run.status(), run.out());
    assertFalse(run.err().contains("Did you mean"), run.err());
    assertTrue(run.err().contains("Usage: moraine"), run.err());
  }

  @Test
  void distance_countsInsertionsDeletionsSubstitutionsAndSwaps() {
    assertEquals(0, UsageErrors.distance("demo", "demo"));
    assertEquals(1, UsageErrors.distance("dmeo", "demo"));
    assertEquals(1, UsageErrors.distance("dum", "dump"));
    assertEquals(1, UsageErrors.distance("demos", "demo"));
    assertEquals(1, UsageErrors.distance("dump", "damp"));
    assertEquals(2, UsageErrors.distance("dum", "demo"));
    assertEquals(4, UsageErrors.distance("", "scan"));
    assertEquals(Optional.of("scan"), UsageErrors.nearest("SCNA", List.of("demo", "dump", "scan")));
    assertEquals(Optional.empty(), UsageErrors.nearest("xy", List.of("demo", "dump", "scan")));
    assertEquals(Optional.empty(), UsageErrors.nearest("dxxp", List.of("demo")));
  }

  @Test
  void noSubcommand_isAUsageErrorThatListsThem() {
    Run run = run();
    assertEquals(2, run.status(), run.out());
    assertTrue(run.err().contains("Missing subcommand: one of demo, scan, dump"), run.err());
    assertTrue(run.err().contains("Usage: moraine"), run.err());
  }

  /** The version the build gave this module (the surefire property), the same for all modules. */
  private static String projectVersion() {
    String version = System.getProperty("moraine.project.version");
    assertTrue(version != null && !version.isEmpty(), "moraine.project.version is not set");
    return version;
  }
}
