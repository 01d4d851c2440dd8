package dev.moraine.duckdb.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckLakeExtensionTest {

  @TempDir Path dir;

  @Test
  void cachedPath_isPerDuckDbVersion() {
    Path expected =
        DuckLakeExtension.cacheRoot().resolve("v1.5.5").resolve("ducklake.duckdb_extension");
    assertEquals(expected, DuckLakeExtension.cachedPath("v1.5.5"));
    assertEquals(expected, DuckLakeExtension.cachedPath("1.5.5"));
  }

  @Test
  void locate_withExplicitMissingFile_saysWhereItLookedAndHowToFetch() {
    String previous = System.getProperty(DuckLakeExtension.PATH_PROPERTY);
    Path missing = dir.resolve("nothing-here.duckdb_extension");
    System.setProperty(DuckLakeExtension.PATH_PROPERTY, missing.toString());
    try {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> DuckLakeExtension.locate("v1.5.5"));
      assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("fetch-ducklake-extension.sh"), e.getMessage());
    } finally {
      if (previous == null) {
        System.clearProperty(DuckLakeExtension.PATH_PROPERTY);
      } else {
        System.setProperty(DuckLakeExtension.PATH_PROPERTY, previous);
      }
    }
  }

  @Test
  void locate_withTheBuildsProperty_findsALoadableFile() throws Exception {
    Path located = DuckLakeExtension.locate("v1.5.5");
    try (ReferenceDuckLake lake = ReferenceDuckLake.builder(dir).extension(located).open()) {
      assertEquals(located, lake.extension());
    }
  }
}
