package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** A missing oracle binary fails the interop tests (never skips them) and says how to build it. */
class OracleToolTest {
  @Test
  void aMissingBinary_failsWithHowToBuildIt() {
    String before = System.getProperty("moraine.oracle");
    System.setProperty("moraine.oracle", "/no/such/moraine-oracle");
    try {
      AssertionFailedError failure = assertThrows(AssertionFailedError.class, OracleTool::binary);
      assertTrue(failure.getMessage().contains("/no/such/moraine-oracle"), failure.getMessage());
      assertTrue(failure.getMessage().contains("cargo build"), failure.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty("moraine.oracle");
      } else {
        System.setProperty("moraine.oracle", before);
      }
    }
  }
}
