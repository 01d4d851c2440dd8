package dev.moraine.duckdb.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceDuckLakeSmokeTest {

  @TempDir Path dir;

  @Test
  void freshLake_hasSnapshotZeroWithMainSchema() throws Exception {
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      assertEquals("v1.5.5", lake.duckdbVersion());
      List<ReferenceSnapshot> snapshots = lake.snapshots();
      assertEquals(
          List.of(new ReferenceSnapshot(0, 0, 1, 0, "created_schema:\"main\"", null, null)),
          snapshots);
      List<Map<String, Object>> schemas = lake.rows("ducklake_schema");
      assertEquals(1, schemas.size());
      assertEquals("main", schemas.get(0).get("schema_name"));
      Map<String, String> metadata = new java.util.HashMap<>();
      for (Map<String, Object> row : lake.rows("ducklake_metadata")) {
        metadata.put((String) row.get("key"), (String) row.get("value"));
      }
      assertEquals("1.0", metadata.get("version"));
      assertEquals("false", metadata.get("encrypted"));
      assertEquals(lake.dataPath(), metadata.get("data_path"));
      assertTrue(lake.metadataTables().contains("ducklake_schema_versions"));
    }
  }

  @Test
  void createAndInsert_writeSnapshotsAndRows() throws Exception {
    try (ReferenceDuckLake lake = ReferenceDuckLake.builder(dir).dataInliningRowLimit(0).open()) {
      lake.execute("CREATE TABLE t (i INTEGER, s VARCHAR)");
      lake.execute("INSERT INTO t SELECT range, 'x' FROM range(100)");
      List<ReferenceSnapshot> snapshots = lake.snapshots();
      assertEquals(3, snapshots.size());
      ReferenceSnapshot create = snapshots.get(1);
      assertEquals("created_table:\"main\".\"t\"", create.changesMade());
      assertEquals(1, create.schemaVersion());
      assertEquals(2, create.nextCatalogId());
      ReferenceSnapshot insert = snapshots.get(2);
      assertEquals("inserted_into_table:1", insert.changesMade());
      assertEquals(1, insert.schemaVersion());
      assertEquals(1, insert.nextFileId());
      assertEquals(1, lake.rowsBegunAt("ducklake_data_file", 2).size());
      assertEquals(2, lake.rowsVisibleAt("ducklake_column", 2).size());
      assertEquals(
          100L, ((Number) lake.query("SELECT count(*) AS n FROM t").get(0).get("n")).longValue());
      assertNull(lake.snapshots().get(2).author());
    }
  }

  @Test
  void twoSessions_secondConflictingCommitFails() throws Exception {
    try (ReferenceDuckLake lake =
        ReferenceDuckLake.builder(dir).maxRetryCount(2).retryWaitMillis(1).open()) {
      lake.execute("CREATE TABLE t (i INTEGER)");
      try (ReferenceSession a = lake.session();
          ReferenceSession b = lake.session()) {
        a.begin();
        b.begin();
        a.execute("DROP TABLE t");
        b.execute("DROP TABLE t");
        assertTrue(a.tryCommit().committed());
        CommitOutcome second = b.tryCommit();
        assertFalse(second.committed());
        assertTrue(second.isConflict(), second.error());
        assertTrue(
            second.error().contains("Transaction conflict - attempting to drop table"),
            second.error());
      }
    }
  }

  /**
   * DuckLake checks for conflicts only when it retries, and stops retrying once attempt + 1 reaches
   * ducklake_max_retry_count: below 2, a commit that lost the race fails on the snapshot primary
   * key before any conflict check, even when the two transactions are compatible.
   */
  @Test
  void retryCountBelowTwo_failsEvenCompatibleConcurrentCommits() throws Exception {
    for (long retries : new long[] {0, 1, 2}) {
      try (ReferenceDuckLake lake =
          ReferenceDuckLake.builder(dir.resolve("r" + retries))
              .dataInliningRowLimit(0)
              .maxRetryCount(retries)
              .retryWaitMillis(1)
              .open()) {
        lake.execute("CREATE TABLE t (i INTEGER)");
        try (ReferenceSession a = lake.session();
            ReferenceSession b = lake.session()) {
          a.begin();
          b.begin();
          a.execute("INSERT INTO t SELECT range FROM range(100)");
          b.execute("INSERT INTO t SELECT range FROM range(100)");
          a.commit();
          CommitOutcome second = b.tryCommit();
          if (retries < 2) {
            assertFalse(second.committed(), "retries=" + retries);
            assertTrue(
                second.error().toLowerCase(java.util.Locale.ROOT).contains("primary key"),
                second.error());
          } else {
            assertTrue(second.committed(), second.error());
          }
        }
      }
    }
  }

  @Test
  void metadataTables_listsInlinedDataTables() throws Exception {
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      lake.execute("CREATE TABLE t (i INTEGER)");
      lake.execute("INSERT INTO t VALUES (1)");
      lake.execute("DELETE FROM t WHERE i = 1");
      List<String> tables = lake.metadataTables();
      assertTrue(tables.containsAll(ReferenceDuckLake.SPEC_TABLES), tables.toString());
      assertTrue(tables.contains("ducklake_inlined_data_1_1"), tables.toString());
      assertEquals(1, lake.rows("ducklake_inlined_data_1_1").size());
    }
  }
}
