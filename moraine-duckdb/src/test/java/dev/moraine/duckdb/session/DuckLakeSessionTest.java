package dev.moraine.duckdb.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckLake SQL run by real DuckDB committing into a Moraine lake through a {@link DuckLakeSession},
 * against the same SQL run on stock DuckLake 1.5.5 directly (both with data inlining off): after
 * every statement, every ducklake_* row of the lake equals stock's, except the names and sizes of
 * the Parquet files each side wrote (named at random; a delete file holds its data file's full
 * path), and DuckDB reads the same rows from both. Then concurrent sessions, and refusals.
 */
class DuckLakeSessionTest {
  @TempDir Path dir;
  private Catalog catalog;
  private ReferenceDuckLake stock;
  private SessionLake lakes;

  @BeforeEach
  void open() throws Exception {
    lakes = SessionLake.open(dir, 0);
    catalog = lakes.catalog;
    stock = lakes.stock;
    stock.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
    stock.execute("CREATE TABLE p (k VARCHAR, v BIGINT)");
    stock.execute("ALTER TABLE p SET PARTITIONED BY (k)");
    catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    catalog.commit(
        tx ->
            tx.createTable(
                0, "p", List.of(ColumnDef.of("k", "varchar"), ColumnDef.of("v", "int64"))));
    catalog.commit(tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1))));
    assertEquals(List.of(), differences(), "the setup");
  }

  @AfterEach
  void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  @Test
  void statements_landInTheLake_asStockCommitsThem() throws Exception {
    List<String> script =
        List.of(
            "INSERT INTO t SELECT range::INTEGER, 'v' || range FROM range(100)",
            "INSERT INTO t VALUES (1000, 'zz'), (-7, NULL)",
            "INSERT INTO p VALUES ('x', 1), ('y', 2), ('x', 3)",
            "BEGIN",
            "INSERT INTO t VALUES (5, 'five')",
            "INSERT INTO p VALUES ('z', 9)",
            "COMMIT",
            "UPDATE t SET b = 'updated' WHERE a = 1000",
            "DELETE FROM t WHERE a < 10",
            "DELETE FROM t WHERE a BETWEEN 20 AND 29",
            "UPDATE t SET b = 'again' WHERE a IN (30, 31)",
            "CREATE TABLE u (x INTEGER, y VARCHAR, z STRUCT(p INTEGER, q DOUBLE))",
            "INSERT INTO u VALUES (1, 'one', {'p': 1, 'q': 1.5}), (2, NULL, NULL)",
            "CREATE TABLE w AS SELECT a, b FROM t WHERE a BETWEEN 40 AND 60",
            "CALL lake.set_option('parquet_compression', 'zstd')",
            "CALL lake.set_option('parquet_row_group_size', '1000', table_name => 't')",
            "CALL lake.set_option('parquet_compression', 'snappy')",
            "INSERT INTO t VALUES (77, 'after options')",
            "ALTER TABLE u ADD COLUMN extra BIGINT",
            "ALTER TABLE u RENAME COLUMN y TO why",
            "ALTER TABLE u DROP COLUMN x",
            "INSERT INTO u VALUES ('three', {'p': 3, 'q': 3.5}, 33)",
            "DROP TABLE w",
            "CREATE TABLE w (again INTEGER)",
            "CREATE OR REPLACE TABLE w (replaced BIGINT, also VARCHAR)",
            "INSERT INTO p VALUES ('x', 10)",
            "CALL ducklake_merge_adjacent_files('lake', 'p')",
            "DELETE FROM p WHERE v = 3",
            "INSERT INTO t VALUES (78, 'after the merge')",
            "CALL ducklake_merge_adjacent_files('lake', 't')");
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("staging"))) {
      for (String sql : script) {
        stock.execute(sql);
        session.execute(sql);
        assertEquals(List.of(), differences(), sql);
        for (String q :
            List.of(
                "SELECT count(*) AS n, sum(a) AS s, count(b) AS nb, min(b) AS lo FROM t",
                "SELECT k, count(*) AS n, sum(v) AS s FROM p GROUP BY k ORDER BY k")) {
          assertEquals(stock.query(q), session.query(q), q + " after " + sql);
        }
      }
      // BEGIN ... COMMIT landed as one snapshot, like every other statement; set_option mints
      // none (its commit answers the head it left as it was).
      assertEquals(
          List.of(
              4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 14L, 14L, 14L, 15L, 16L, 17L, 18L,
              19L, 20L, 21L, 22L, 23L, 24L, 25L, 26L, 27L),
          session.landedSnapshots(),
          "one snapshot per commit");
      String q = "SELECT count(*) AS n, sum(a) AS s, min(b) AS lo FROM w AT (VERSION => 14)";
      assertEquals(stock.query(q), session.query(q), q);
      // A merge of several partitions at once: which merged file DuckDB numbers first is its own
      // choice (the partitions are written in parallel), so the rows compare up to file ids.
      for (String sql :
          List.of(
              "INSERT INTO p VALUES ('y', 20), ('z', 30)",
              "INSERT INTO p VALUES ('y', 21), ('z', 31)",
              "CALL ducklake_merge_adjacent_files('lake')")) {
        stock.execute(sql);
        session.execute(sql);
      }
      for (String files :
          List.of(
              "SELECT count(*) AS n FROM ducklake_list_files('lake', 'p')",
              "SELECT k, count(*) AS n, sum(v) AS s FROM p GROUP BY k ORDER BY k")) {
        assertEquals(stock.query(files), session.query(files), files);
      }
    }
    // Time travel in DuckDB over the lake's snapshots: the session reads through its export.
    try (DuckLakeSession again = DuckLakeSession.open(catalog, dir.resolve("staging2"))) {
      for (long v = 4; v <= 27; v++) {
        for (String q :
            List.of(
                "SELECT count(*) AS n, sum(a) AS s FROM t AT (VERSION => " + v + ")",
                "SELECT k, count(*) AS n, sum(v) AS s FROM p AT (VERSION => "
                    + v
                    + ") GROUP BY k ORDER BY k")) {
          assertEquals(stock.query(q), again.query(q), q);
        }
      }
    }
  }

  /** The README's example ("Writing to a lake with DuckDB SQL"), with the batch files in dir. */
  @Test
  void readmeExample_runsAsWritten() throws Exception {
    catalog.commit(
        tx ->
            tx.createTable(
                0,
                "events",
                List.of(ColumnDef.of("id", "int64"), ColumnDef.of("amount", "float64"))));
    String batch = dir.resolve("batch-").toAbsolutePath().toString();
    try (DuckLakeSession sql = DuckLakeSession.open(catalog, dir.resolve("staging"))) {
      for (int b = 1; b <= 2; b++) {
        sql.execute(
            "COPY (SELECT range AS id, range - 3.0 AS amount FROM range("
                + (b * 10)
                + ")) TO '"
                + batch
                + b
                + ".parquet'");
      }
      long head = catalog.head().snapshotId();
      sql.execute("INSERT INTO events SELECT * FROM read_parquet('" + batch + "*.parquet')");
      sql.execute("DELETE FROM events WHERE amount < 0");
      List<Map<String, Object>> rows = sql.query("SELECT count(*) AS n FROM events");
      assertEquals(List.of(Map.of("n", 24L)), rows);
      assertEquals(head + 2, catalog.head().snapshotId(), "two commits, two snapshots");
    }
    long events =
        catalog.snapshot().tables().stream()
            .filter(t -> t.name().equals("events"))
            .findFirst()
            .orElseThrow()
            .tableId();
    assertEquals(30, catalog.snapshot().tableStats(events).orElseThrow().recordCount());
  }

  @Test
  void refusedStatements_leaveTheLakeAsItWas_andTheSessionGoesOn() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("staging"))) {
      session.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (4, 'four')");
      session.execute("DELETE FROM t WHERE a = 1");
      Head head = catalog.head();
      // A comment set to NULL is not taken by the door: the lake keeps comments as text.
      InvalidArgumentException ddl =
          assertThrows(
              InvalidArgumentException.class, () -> session.execute("COMMENT ON TABLE t IS NULL"));
      assertTrue(ddl.getMessage().contains("NULL"), ddl.getMessage());
      assertEquals(head, catalog.head());
      assertEquals(
          List.of(Map.of("n", 2L)), session.query("SELECT count(*) AS n FROM t"), "as the lake");
      // A second delete from one data file: DuckLake replaces its delete file.
      session.execute("DELETE FROM t WHERE a = 2");
      assertEquals(head.snapshotId() + 1, catalog.head().snapshotId());
      assertEquals(1, catalog.snapshot().scheduledDeletions().size(), "the old one scheduled");
      session.execute("INSERT INTO t VALUES (3, 'three')");
      assertEquals(head.snapshotId() + 2, catalog.head().snapshotId());
      assertEquals(List.of(Map.of("n", 2L)), session.query("SELECT count(*) AS n FROM t"));
      // A DELETE of every row left in a file ends the file, which the door takes.
      session.execute("DELETE FROM t WHERE a IN (3, 4)");
      assertEquals(head.snapshotId() + 3, catalog.head().snapshotId());
      assertEquals(List.of(Map.of("n", 0L)), session.query("SELECT count(*) AS n FROM t"));
      // One statement per call: a string of several is refused before DuckDB runs any of it,
      // since the session reads a transaction's state off its statement's first keyword.
      Head beforeMany = catalog.head();
      SQLException many =
          assertThrows(
              SQLException.class,
              () -> session.execute("BEGIN; INSERT INTO t VALUES (50, 'x'); COMMIT"));
      assertTrue(many.getMessage().contains("one statement per call"), many.getMessage());
      assertEquals(beforeMany, catalog.head());
      // Maintenance that deletes files of the shared data path is refused the same way.
      SQLException cleanup =
          assertThrows(
              SQLException.class,
              () ->
                  session.execute(
                      "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)"));
      assertTrue(cleanup.getMessage().contains("maintenance"), cleanup.getMessage());
      // A transaction begun behind a comment is still one, and lands as one snapshot.
      session.execute("/* one snapshot */ BEGIN");
      session.execute("INSERT INTO t VALUES (51, 'y')");
      session.execute("INSERT INTO t VALUES (52, 'z')");
      assertEquals(beforeMany, catalog.head(), "nothing lands before COMMIT");
      session.execute("COMMIT");
      assertEquals(beforeMany.snapshotId() + 1, catalog.head().snapshotId());
      assertEquals(List.of(Map.of("n", 2L)), session.query("SELECT count(*) AS n FROM t"));
      session.execute("DELETE FROM t");
      // Options are last-write-wins: another session setting the same one meanwhile is
      // overwritten, not a refusal.
      try (DuckLakeSession other = DuckLakeSession.open(catalog, dir.resolve("staging-other"))) {
        session.execute("CALL lake.set_option('parquet_compression', 'zstd')");
        other.execute("CALL lake.set_option('parquet_compression', 'snappy')");
      }
      assertEquals(
          java.util.Optional.of("snappy"),
          catalog
              .snapshot()
              .option(dev.moraine.core.catalog.model.OptionScope.global(), "parquet_compression"));
      // A table the session creates is one the verbs work on, and the other way round.
      session.execute("CREATE TABLE u (x INTEGER)");
      session.execute("INSERT INTO u VALUES (7), (8)");
      long u =
          catalog.snapshot().tables().stream()
              .filter(t -> t.name().equals("u"))
              .findFirst()
              .orElseThrow()
              .tableId();
      catalog.commit(tx -> tx.renameTable(u, "renamed"));
      assertEquals(
          List.of(Map.of("n", 2L, "s", java.math.BigInteger.valueOf(15))),
          session.query("SELECT count(*) AS n, sum(x)::HUGEINT AS s FROM renamed"));
    }
  }

  /**
   * Schemas, views, partitionings and macros through a session: created, replaced and dropped as
   * stock records them.
   */
  @Test
  void schemasViewsPartitioningsAndMacros_landAsStockCommitsThem() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("names"))) {
      runOnBoth(
          session,
          List.of(
              "INSERT INTO t VALUES (1, 'one'), (2, 'two')",
              "CREATE SCHEMA s2",
              "CREATE TABLE s2.x (a INTEGER)",
              "INSERT INTO s2.x VALUES (10), (20)",
              "CREATE VIEW v AS SELECT a FROM t",
              "CREATE VIEW s2.vx AS SELECT a * 2 AS b FROM s2.x",
              "CREATE OR REPLACE VIEW v AS SELECT a, b FROM t WHERE a > 1",
              "DROP VIEW s2.vx",
              "DROP TABLE s2.x",
              "DROP SCHEMA s2",
              "BEGIN",
              "CREATE SCHEMA s3",
              "CREATE TABLE s3.y (k INTEGER)",
              "CREATE VIEW s3.w AS SELECT k FROM s3.y",
              "COMMIT",
              "ALTER TABLE t SET PARTITIONED BY (a)",
              "INSERT INTO t VALUES (3, 'three'), (4, 'four')",
              "ALTER TABLE p SET PARTITIONED BY (k, v)",
              "INSERT INTO p VALUES ('x', 1)",
              "CREATE MACRO twice(x) AS x * 2",
              "CREATE MACRO add_default(x, y := 10) AS x + y",
              "CREATE MACRO s3.rows_of(n) AS TABLE SELECT * FROM range(n)",
              "CREATE OR REPLACE MACRO twice(x) AS x + x",
              "DROP MACRO add_default"));
      String q = "SELECT count(*) AS n, sum(a) AS s FROM v";
      assertEquals(stock.query(q), session.query(q), q);
      String w = "SELECT count(*) AS n FROM s3.w";
      assertEquals(stock.query(w), session.query(w), w);
      String m = "SELECT twice(21) AS t, (SELECT count(*) FROM s3.rows_of(4)) AS r";
      assertEquals(stock.query(m), session.query(m), m);
    }
  }

  /**
   * Comments and sort keys through a session: set, replaced, reset, carried over a column's rename
   * and ended with their table or view, as stock records them; a comment set to NULL, which the
   * lake cannot hold, is refused and changes nothing.
   */
  @Test
  void commentsAndSortKeys_landAsStockCommitsThem() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("comments"))) {
      runOnBoth(
          session,
          List.of(
              "INSERT INTO t VALUES (1, 'one'), (2, 'two')",
              "COMMENT ON TABLE t IS 'the t table'",
              "COMMENT ON TABLE t IS 'the t table, again'",
              "COMMENT ON COLUMN t.a IS 'the a column'",
              "CREATE VIEW v AS SELECT a FROM t",
              "COMMENT ON VIEW v IS 'a view'",
              "ALTER TABLE t SET SORTED BY (a DESC, b)",
              "ALTER TABLE t SET SORTED BY (b NULLS FIRST)",
              "ALTER TABLE t RENAME COLUMN b TO bb",
              "INSERT INTO t VALUES (3, 'c'), (4, 'a')",
              "ALTER TABLE t RESET SORTED BY",
              "ALTER TABLE p SET SORTED BY (v)",
              "BEGIN",
              "CREATE TABLE c (x INTEGER)",
              "COMMENT ON TABLE c IS 'new'",
              "COMMENT ON COLUMN c.x IS 'its x'",
              "ALTER TABLE c SET SORTED BY (x)",
              "COMMIT",
              "INSERT INTO c VALUES (3), (1), (2)",
              "COMMENT ON COLUMN t.a IS 'the a column, again'",
              "ALTER TABLE t RENAME COLUMN a TO aa",
              "BEGIN",
              "COMMENT ON TABLE t IS 'in a transaction'",
              "COMMENT ON COLUMN t.bb IS 'bb'",
              "COMMIT",
              "DROP VIEW v",
              "DROP TABLE c",
              "DROP TABLE p"));
      String q =
          "SELECT table_name, comment FROM duckdb_tables() WHERE database_name = 'lake'"
              + " ORDER BY table_name";
      assertEquals(stock.query(q), session.query(q), q);
      String cq =
          "SELECT table_name, column_name, comment FROM duckdb_columns()"
              + " WHERE database_name = 'lake' ORDER BY table_name, column_name";
      assertEquals(stock.query(cq), session.query(cq), cq);
      Head head = catalog.head();
      InvalidArgumentException nullComment =
          assertThrows(
              InvalidArgumentException.class, () -> session.execute("COMMENT ON TABLE t IS NULL"));
      assertTrue(nullComment.getMessage().contains("NULL"), nullComment.getMessage());
      assertEquals(head, catalog.head());
      session.execute("COMMENT ON TABLE t IS ''");
      assertEquals(head.snapshotId() + 1, catalog.head().snapshotId());
    }
  }

  /**
   * Parquet files registered by their columns' names ({@code ducklake_add_data_files}): the mapping
   * and its name rows land as stock writes them, the mapping id drawn from {@code next_file_id},
   * and DuckDB reads the files through them. A registration authored against a snapshot the lake
   * has moved past is rebased, its mapping id moved with its file id.
   */
  @Test
  void addedDataFiles_mappedByName_landAsStockCommitsThem_andRebase() throws Exception {
    Path first = dir.resolve("ext-1.parquet");
    Path second = dir.resolve("ext-2.parquet");
    stock.execute(
        "COPY (SELECT i::INTEGER AS a, 'v' || i AS b FROM range(5) r(i)) TO '" + first + "'");
    stock.execute(
        "COPY (SELECT 'w' || i AS B, (i + 10)::INTEGER AS A FROM range(3) r(i)) TO '"
            + second
            + "'");
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("added"))) {
      runOnBoth(
          session,
          List.of(
              "CALL ducklake_add_data_files('lake', 't', '" + first + "')",
              "INSERT INTO t VALUES (100, 'written')",
              "CALL ducklake_add_data_files('lake', 't', '" + second + "')",
              "DELETE FROM t WHERE a = 11"));
      String q = "SELECT count(*) AS n, sum(a) AS s, min(b) AS lo, max(b) AS hi FROM t";
      assertEquals(stock.query(q), session.query(q), q);

      // Another session registers a file of a third layout (stock tells mappings apart by their
      // names' case, not their order) in a transaction begun before this one's next commit, which
      // reuses the second file's mapping as stock does: the late rows are rebased, the new
      // mapping's id moved with the file id.
      Path third = dir.resolve("ext-3.parquet");
      stock.execute(
          "COPY (SELECT 'x' || i AS b, (i + 20)::INTEGER AS A FROM range(4) r(i)) TO '"
              + third
              + "'");
      try (DuckLakeSession late = DuckLakeSession.open(catalog, dir.resolve("added-late"))) {
        late.execute("BEGIN");
        late.execute("CALL ducklake_add_data_files('lake', 't', '" + third + "')");
        session.execute("CALL ducklake_add_data_files('lake', 't', '" + second + "')");
        late.execute("COMMIT");
      }
      CatalogSnapshot head = catalog.snapshot();
      Set<Long> mappings = new HashSet<>();
      Set<Long> fileIds = new HashSet<>();
      for (DataFileInfo f : head.dataFiles(1)) {
        fileIds.add(f.dataFileId());
        f.mappingId().ifPresent(mappings::add);
      }
      assertEquals(3, mappings.size(), "a mapping per layout: " + mappings);
      mappings.forEach(m -> assertTrue(!fileIds.contains(m), "mapping " + m + " is a file's id"));
      assertEquals(
          List.of(Map.of("n", 15L, "s", java.math.BigInteger.valueOf(251))),
          session.query("SELECT count(*) AS n, sum(a)::HUGEINT AS s FROM t"),
          "5+1+3-1 rows, the second file again and the third's 4");
    }
  }

  /**
   * RESET PARTITIONED BY through a session: stock ends the live partitioning and opens one without
   * columns, under an id it draws; the lake ends it and keeps no record for the empty one (as
   * {@code resetPartitionKey} does), with the catalog counter as stock left it. Every other row
   * stays equal, the files written after the reset carry no partition id on both sides, and the
   * next partitioning takes stock's id.
   */
  @Test
  void resetPartitionedBy_endsThePartitioning_asStockDoes_withoutAnEmptyOne() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("reset"))) {
      for (String sql :
          List.of(
              "INSERT INTO p VALUES ('a', 1), ('b', 2)",
              "ALTER TABLE p RESET PARTITIONED BY",
              "INSERT INTO p VALUES ('c', 3), ('d', 4)",
              "ALTER TABLE p SET PARTITIONED BY (v)",
              "INSERT INTO p VALUES ('e', 5)",
              // (Stock 1.5.5 fails with an internal error on a RESET and an INSERT in one
              // transaction, so they run apart.)
              "ALTER TABLE p RESET PARTITIONED BY",
              "INSERT INTO p VALUES ('f', 6)")) {
        stock.execute(sql);
        session.execute(sql);
        assertEquals(List.of(), SessionRows.differences(stock, catalog, true), sql);
      }
      List<String> all = differences();
      assertEquals(1, all.size(), all.toString());
      assertTrue(all.get(0).startsWith("ducklake_partition_info"), all.get(0));
      assertEquals(
          List.of(),
          catalog.snapshot().tables().stream()
              .filter(t -> t.name().equals("p"))
              .flatMap(t -> catalog.snapshot().partitioning(t.tableId()).stream())
              .toList(),
          "p is not partitioned");
      String q = "SELECT count(*) AS n, sum(v) AS s FROM p";
      assertEquals(stock.query(q), session.query(q), q);
    }
  }

  /**
   * Snapshot expiry through a session: the lake expires the snapshots DuckLake's call expired, and
   * removes and schedules what stock does with them.
   */
  @Test
  void expiry_removesWhatStockRemoves() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("expiry"))) {
      for (String sql :
          List.of(
              "INSERT INTO t SELECT range::INTEGER, 'v' || range FROM range(20)",
              "INSERT INTO t VALUES (100, 'a'), (101, 'b')",
              "DELETE FROM t WHERE a < 5",
              "UPDATE t SET b = 'changed' WHERE a = 100",
              "DELETE FROM t WHERE a >= 100",
              "INSERT INTO p VALUES ('x', 1)",
              "CALL ducklake_expire_snapshots('lake', versions => [4, 5])",
              "DELETE FROM t WHERE a = 7",
              "CALL ducklake_expire_snapshots('lake', older_than => now())",
              "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)")) {
        stock.execute(sql);
        long head = catalog.head().snapshotId();
        session.execute(sql);
        assertEquals(List.of(), differences(), sql);
        if (sql.contains("expire") || sql.contains("cleanup")) {
          assertEquals(head, catalog.head().snapshotId(), "maintenance mints no snapshot");
        }
        String q = "SELECT count(*) AS n, sum(a) AS s, min(b) AS lo FROM t";
        assertEquals(stock.query(q), session.query(q), q + " after " + sql);
      }
      assertEquals(1, catalog.snapshot().snapshotLog().size(), "only the head is left");
      assertEquals(List.of(), catalog.snapshot().scheduledDeletions(), "every file cleaned up");
      // Inside a transaction DuckLake would delete the files before the lake judged the commit.
      session.execute("BEGIN");
      SQLException inside =
          assertThrows(
              SQLException.class,
              () ->
                  session.execute("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)"));
      assertTrue(inside.getMessage().contains("outside BEGIN"), inside.getMessage());
      session.execute("ROLLBACK");
    }
  }

  @Test
  void concurrentSessions_allLand_withDenseRowIds() throws Exception {
    int sessions = 8;
    int commitsEach = 5;
    CommitStatistics before = catalog.commitStatistics();
    ExecutorService pool = Executors.newFixedThreadPool(sessions);
    List<Future<List<Long>>> runs = new ArrayList<>();
    for (int s = 0; s < sessions; s++) {
      int id = s;
      runs.add(
          pool.submit(
              () -> {
                try (DuckLakeSession session =
                    DuckLakeSession.open(catalog, dir.resolve("staging-" + id))) {
                  for (int i = 0; i < commitsEach; i++) {
                    session.execute(
                        "INSERT INTO t VALUES ("
                            + (id * 100 + i)
                            + ", 's"
                            + id
                            + "'), (0, NULL), (1, 'x')");
                  }
                  return session.landedSnapshots();
                }
              }));
    }
    Set<Long> snapshots = new HashSet<>();
    for (Future<List<Long>> run : runs) {
      List<Long> landed = run.get(5, TimeUnit.MINUTES);
      assertEquals(commitsEach, landed.size());
      snapshots.addAll(landed);
    }
    pool.shutdown();
    int total = sessions * commitsEach;
    assertEquals(total, snapshots.size(), "every commit minted its own snapshot");
    CatalogSnapshot after = catalog.snapshot();
    List<DataFileInfo> files = new ArrayList<>(after.dataFiles(1));
    files.sort(Comparator.comparingLong(f -> f.rowIdStart().orElseThrow()));
    long next = 0;
    for (DataFileInfo f : files) {
      assertEquals(next, f.rowIdStart().orElseThrow(), "row ids are dense");
      next += f.recordCount();
    }
    assertEquals(3L * total, next);
    assertEquals(3L * total, after.tableStats(1).orElseThrow().recordCount());
    CommitStatistics stats = catalog.commitStatistics();
    long commits = stats.commitsLanded() - before.commitsLanded();
    long flushes = stats.walFlushes() - before.walFlushes();
    System.out.printf(
        "%d sessions, %d commits in %d WAL flushes: %.2f commits per flush%n",
        sessions, commits, flushes, (double) commits / flushes);
    assertEquals(total, commits);
  }

  /**
   * The tables whose rows differ between stock and the lake, the paths and sizes of data and delete
   * files masked.
   */
  /**
   * Runs each statement of {@code script} on stock and through {@code session}; after each, every
   * ducklake_* row must agree.
   */
  private void runOnBoth(DuckLakeSession session, List<String> script) throws Exception {
    for (String sql : script) {
      stock.execute(sql);
      session.execute(sql);
      assertEquals(List.of(), differences(), sql);
    }
  }

  private List<String> differences() throws Exception {
    return SessionRows.differences(stock, catalog);
  }
}
