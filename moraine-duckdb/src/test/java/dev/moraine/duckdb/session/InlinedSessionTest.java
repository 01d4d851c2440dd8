package dev.moraine.duckdb.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.verbs.InlinedRowComparison;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckLake SQL with data inlining on (a row limit of 10 on both sides), run by real DuckDB through
 * a {@link DuckLakeSession} into a Moraine lake and on stock DuckLake 1.5.5 directly: after every
 * statement every ducklake_* row and every row of the inlined-data tables is equal (file names and
 * sizes aside), and both answer the same queries, time travel included.
 */
class InlinedSessionTest {
  private static final long LIMIT = 10;

  @TempDir Path dir;
  private Catalog catalog;
  private ReferenceDuckLake stock;
  private SessionLake lakes;

  @BeforeEach
  void open() throws Exception {
    lakes = SessionLake.open(dir, LIMIT);
    catalog = lakes.catalog;
    stock = lakes.stock;
  }

  @AfterEach
  void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  @Test
  void inlinedStatements_landInTheLake_asStockCommitsThem() throws Exception {
    List<String> script =
        List.of(
            "CREATE TABLE t (a INTEGER, b VARCHAR, s STRUCT(p INTEGER, q DOUBLE), d DATE,"
                + " l INTEGER[], ok BOOLEAN)",
            "INSERT INTO t VALUES (1, 'one', {'p': 1, 'q': 1.5}, DATE '2020-01-02', [1, 2], true),"
                + " (2, NULL, NULL, NULL, NULL, NULL)",
            "INSERT INTO t SELECT range::INTEGER, 'v' || range, NULL, NULL, [range::INTEGER],"
                + " range % 2 = 0 FROM range(100, 130)",
            "INSERT INTO t VALUES (3, 'three', {'p': 3, 'q': -0.25}, DATE '1999-12-31', [], false)",
            "DELETE FROM t WHERE a = 2",
            "DELETE FROM t WHERE a = 105",
            "UPDATE t SET b = 'uno' WHERE a = 1",
            "UPDATE t SET b = 'from a file' WHERE a = 110",
            "BEGIN",
            "INSERT INTO t VALUES (4, 'four', NULL, NULL, NULL, NULL)",
            "DELETE FROM t WHERE a = 3",
            "COMMIT",
            "CALL ducklake_flush_inlined_data('lake', table_name => 't')",
            "ALTER TABLE t ADD COLUMN c BIGINT",
            "INSERT INTO t VALUES (5, 'five', NULL, NULL, NULL, true, 55)",
            "DELETE FROM t WHERE a = 4",
            "UPDATE t SET b = 'again' WHERE a = 1",
            "CREATE TABLE u (x INTEGER, y VARCHAR)",
            "INSERT INTO u VALUES (1, 'a'), (2, 'b')",
            "DELETE FROM u WHERE x = 1",
            "CREATE TABLE small AS SELECT range::INTEGER AS r, 'r' || range AS name FROM range(3)",
            "BEGIN",
            "CREATE TABLE v (k INTEGER, note VARCHAR)",
            "INSERT INTO v VALUES (1, 'first'), (2, NULL)",
            "COMMIT",
            "ALTER TABLE small ADD COLUMN extra DOUBLE",
            "INSERT INTO small VALUES (10, 'ten', 0.5)",
            "CALL ducklake_flush_inlined_data('lake', table_name => 'u')",
            "CALL ducklake_flush_inlined_data('lake', table_name => 't')",
            "INSERT INTO t VALUES (6, 'six', NULL, NULL, [6], NULL, 66)",
            "DELETE FROM t WHERE a = 120");
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("staging"), LIMIT)) {
      for (String sql : script) {
        runOnBoth(session, sql);
        String q =
            "SELECT count(*) AS n, sum(a) AS s, count(b) AS nb, min(b) AS lo, max(d) AS d,"
                + " sum(s.p) AS p, count(l) AS nl, count(ok) AS nok FROM t";
        assertEquals(stock.query(q), session.query(q), q + " after " + sql);
      }
      // A flush of rows inlined under two schema versions writes two files, which DuckDB numbers
      // in the order it finishes them: compared by answers and file count.
      for (String sql :
          List.of(
              "INSERT INTO t VALUES (7, 'seven', NULL, NULL, NULL, NULL, 77)",
              "ALTER TABLE t ADD COLUMN e INTEGER",
              "INSERT INTO t VALUES (8, 'eight', NULL, NULL, NULL, NULL, 88, 1)",
              "CALL ducklake_flush_inlined_data('lake')")) {
        stock.execute(sql);
        session.execute(sql);
      }
      for (String q :
          List.of(
              "SELECT count(*) AS n FROM ducklake_list_files('lake', 't')",
              "SELECT count(*) AS n, sum(a) AS s, sum(c) AS c, sum(e) AS e FROM t")) {
        assertEquals(stock.query(q), session.query(q), q);
      }
      // Time travel over every snapshot, inlined rows and their ends included.
      long head = catalog.head().snapshotId();
      for (long v = 1; v <= head; v++) {
        String q =
            "SELECT count(*) AS n, sum(a) AS s, min(b) AS lo FROM t AT (VERSION => " + v + ")";
        assertEquals(stock.query(q), session.query(q), q);
      }
    }
  }

  /**
   * Inlined appends raced by another session's append are rebased as stock re-drives them: the row
   * ids and statistics move onto the head. An inlined delete raced by an append is a conflict on
   * both sides.
   */
  @Test
  void inlinedRowsRacedByAnotherSession_areRebasedOrRefusedAsStockDoes() throws Exception {
    try (DuckLakeSession one = DuckLakeSession.open(catalog, dir.resolve("one"), LIMIT);
        DuckLakeSession two = DuckLakeSession.open(catalog, dir.resolve("two"), LIMIT);
        ReferenceSession stockOne = stock.session()) {
      for (String sql :
          List.of(
              "CREATE TABLE t (a INTEGER, b VARCHAR)",
              "INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')")) {
        stock.execute(sql);
        one.execute(sql);
      }
      // One appends in a transaction; two's append lands first.
      one.execute("BEGIN");
      stockOne.begin();
      String mine = "INSERT INTO t VALUES (10, 'ten'), (11, 'eleven')";
      one.execute(mine);
      stockOne.execute(mine);
      String theirs = "INSERT INTO t VALUES (20, 'twenty')";
      two.execute(theirs);
      stock.execute(theirs);
      long before = catalog.head().snapshotId();
      one.execute("COMMIT");
      CommitOutcome stockCommit = stockOne.tryCommit();
      assertTrue(stockCommit.committed(), "stock re-drove the append: " + stockCommit);
      assertEquals(before + 1, catalog.head().snapshotId(), "the append landed, rebased");
      assertSameRows("after the rebase");

      // One deletes an inlined row in a transaction; two's append lands first: a conflict.
      one.execute("BEGIN");
      stockOne.begin();
      one.execute("DELETE FROM t WHERE a = 1");
      stockOne.execute("DELETE FROM t WHERE a = 1");
      two.execute("INSERT INTO t VALUES (21, 'twenty-one')");
      stock.execute("INSERT INTO t VALUES (21, 'twenty-one')");
      Head head = catalog.head();
      CommitConflictException lost =
          assertThrows(CommitConflictException.class, () -> one.execute("COMMIT"));
      assertTrue(lost.getMessage().contains("conflict"), lost.getMessage());
      CommitOutcome refused = stockOne.tryCommit();
      assertTrue(!refused.committed() && refused.isConflict(), "stock refused it: " + refused);
      assertEquals(head, catalog.head(), "the refused delete wrote nothing");
      assertEquals(List.of(), SessionRows.differences(stock, catalog), "after the conflict");
      assertEquals(
          stock.query("SELECT count(*) AS n, sum(a) AS s FROM t"),
          one.query("SELECT count(*) AS n, sum(a) AS s FROM t"));

      // One flushes in a transaction; two's append lands first: the flush is rebased, and the
      // appended row stays inlined, as in stock's re-drive.
      one.execute("BEGIN");
      stockOne.begin();
      one.execute("CALL ducklake_flush_inlined_data('lake')");
      stockOne.execute("CALL ducklake_flush_inlined_data('lake')");
      two.execute("INSERT INTO t VALUES (30, 'thirty')");
      stock.execute("INSERT INTO t VALUES (30, 'thirty')");
      long beforeFlush = catalog.head().snapshotId();
      one.execute("COMMIT");
      CommitOutcome stockFlush = stockOne.tryCommit();
      assertTrue(stockFlush.committed(), "stock re-drove the flush: " + stockFlush);
      assertEquals(beforeFlush + 1, catalog.head().snapshotId(), "the flush landed, rebased");
      assertSameRows("after the flush");
      assertEquals(
          stock.query("SELECT count(*) AS n, sum(a) AS s FROM t"),
          one.query("SELECT count(*) AS n, sum(a) AS s FROM t"));
    }
  }

  /** Sessions appending small batches at once: every commit lands inline, row ids dense. */
  @Test
  void concurrentInlinedAppends_allLand_withDenseRowIds() throws Exception {
    try (DuckLakeSession first = DuckLakeSession.open(catalog, dir.resolve("first"), LIMIT)) {
      first.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
    }
    int sessions = 4;
    int commitsEach = 5;
    ExecutorService pool = Executors.newFixedThreadPool(sessions);
    List<Future<Integer>> runs = new ArrayList<>();
    for (int s = 0; s < sessions; s++) {
      int id = s;
      runs.add(
          pool.submit(
              () -> {
                try (DuckLakeSession session =
                    DuckLakeSession.open(catalog, dir.resolve("s" + id), LIMIT)) {
                  for (int i = 0; i < commitsEach; i++) {
                    session.execute(
                        "INSERT INTO t VALUES (" + (id * 100 + i) + ", 's" + id + "'), (0, NULL)");
                  }
                  return session.landedSnapshots().size();
                }
              }));
    }
    for (Future<Integer> run : runs) {
      assertEquals(commitsEach, run.get(5, TimeUnit.MINUTES));
    }
    pool.shutdown();
    long rows = 2L * sessions * commitsEach;
    List<Long> ids = new ArrayList<>();
    for (InlinedTable t : DuckLakeRowRenderer.render(catalog.snapshot()).inlinedTables()) {
      if (t.name().startsWith("ducklake_inlined_data_")) {
        t.rows().forEach(r -> ids.add(((Number) r.get(0)).longValue()));
      }
    }
    ids.sort(null);
    List<Long> dense = new ArrayList<>();
    for (long i = 0; i < rows; i++) {
      dense.add(i);
    }
    assertEquals(dense, ids, "every row inlined, row ids dense");
    assertEquals(rows, catalog.snapshot().tableStats(1).orElseThrow().recordCount());
    assertEquals(rows, catalog.snapshot().tableStats(1).orElseThrow().nextRowId());
  }

  /**
   * A flush of a file's inline deletions when the file has a delete file already: stock replaces
   * the delete file with one of both, begun at the first inline deletion.
   */
  @Test
  void aFlushFoldingInlineDeletionsIntoAFilesDeleteFile_landsAsStocks() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("fold"), LIMIT)) {
      for (String sql :
          List.of(
              "CREATE TABLE w (a INTEGER)",
              "INSERT INTO w SELECT range::INTEGER FROM range(14)",
              "DELETE FROM w WHERE a = 0",
              "DELETE FROM w WHERE a > 0 AND a < 12",
              "CALL ducklake_flush_inlined_data('lake')")) {
        runOnBoth(session, sql);
        String q = "SELECT count(*) AS n, sum(a) AS s FROM w";
        assertEquals(stock.query(q), session.query(q), q + " after " + sql);
      }
    }
  }

  /**
   * A table created while inlining was off has no inlined-data table: its first inlined insert
   * registers one, bumping the schema version, as stock does.
   */
  @Test
  void theFirstInlinedInsertIntoATableCreatedWithoutInlining_registersItsTable() throws Exception {
    try (DuckLakeSession session = DuckLakeSession.open(catalog, dir.resolve("first"), LIMIT)) {
      for (String sql :
          List.of(
              "CALL lake.set_option('data_inlining_row_limit', 0)",
              "CREATE TABLE z (a INTEGER, b VARCHAR)",
              "CALL lake.set_option('data_inlining_row_limit', 10)",
              "INSERT INTO z VALUES (1, 'one'), (2, 'two')",
              "INSERT INTO z VALUES (3, 'three')")) {
        runOnBoth(session, sql);
        if (sql.startsWith("INSERT")) {
          String q = "SELECT count(*) AS n, sum(a) AS s FROM z";
          assertEquals(stock.query(q), session.query(q), q + " after " + sql);
        }
      }
    }
  }

  /** Runs {@code sql} on stock and through {@code session}, and compares every row after. */
  private void runOnBoth(DuckLakeSession session, String sql) throws Exception {
    stock.execute(sql);
    session.execute(sql);
    assertSameRows(sql);
  }

  /** Every ducklake_* row and every inlined row of the lake equals stock's. */
  private void assertSameRows(String when) throws Exception {
    assertEquals(List.of(), SessionRows.differences(stock, catalog), when);
    assertEquals(
        List.of(),
        InlinedRowComparison.differences(stock, DuckLakeRowRenderer.render(catalog.snapshot())),
        when);
  }
}
