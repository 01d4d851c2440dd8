package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.session.CommitCapture;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The staged-row door's rebase against stock DuckLake 1.5.5 re-driving the same race itself. Each
 * case is a race of two commits from one base: on stock, a session runs B in a transaction while A
 * commits, then B commits, and stock's own commit loop either re-drives B on top of A or refuses it
 * as a conflict. On ours, A lands first, then B's rows as DuckLake authored them against the base
 * (read off a second stock lake, {@code author}, that saw only the base and B) go through {@code
 * commitStaged}: a B stock re-drove must land rebased with every ducklake_* row equal to stock's
 * (snapshot id, file ids, row ids, begin snapshots, table and column statistics, schema version,
 * counters); a B stock refused must be refused with {@link CommitConflictException}, nothing
 * written.
 *
 * <p>The paths and sizes of B's files are the only values taken from stock's run: each lake names
 * the Parquet files it writes at random, a delete file holds the path of the file it deletes from,
 * and none of these is a value the rebase derives.
 */
class StagedRebaseDifferentialTest {
  @TempDir Path dir;
  private PairedLakes lakes;
  private ReferenceDuckLake stock;
  private ReferenceDuckLake author;

  @BeforeEach
  void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0), "rebase");
    stock = lakes.stock;
    author = ReferenceDuckLake.builder(dir.resolve("author")).dataInliningRowLimit(0).open();
    for (ReferenceDuckLake lake : List.of(stock, author)) {
      lake.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
      lake.execute("CREATE TABLE p (k VARCHAR, v BIGINT)");
      lake.execute("ALTER TABLE p SET PARTITIONED BY (k)");
    }
    lakes.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    lakes.catalog.commit(
        tx ->
            tx.createTable(
                0, "p", List.of(ColumnDef.of("k", "varchar"), ColumnDef.of("v", "int64"))));
    lakes.catalog.commit(tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1))));
    // A first file in each table, on every side: the base the races start from.
    landEverywhere("INSERT INTO t SELECT range::INTEGER, 'v' || range FROM range(5)");
    landEverywhere("INSERT INTO p VALUES ('x', 1), ('y', 2)");
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "the setup");
  }

  /** Runs {@code sql} on stock and the author lake, and lands stock's rows in ours. */
  private void landEverywhere(String sql) throws Exception {
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows before = StagedCapture.read(stock);
    stock.execute(sql);
    lakes.catalog.commitStaged(StagedCapture.between(base, before, StagedCapture.read(stock)));
    author.execute(sql);
  }

  @AfterEach
  void close() throws Exception {
    if (author != null) {
      author.close();
    }
    if (lakes != null) {
      lakes.close();
    }
  }

  @Test
  void appendsToOneTable_areRebasedAsStockRedrivesThem() throws Exception {
    race(
        "INSERT INTO t VALUES (50, 'm'), (51, 'n')",
        null,
        "INSERT INTO t VALUES (100, 'zzz'), (-5, 'aaa'), (7, NULL)",
        false);
  }

  @Test
  void anAppendWithinBoundsAnotherAppendWidened_keepsTheWiderBounds() throws Exception {
    // B's values lie inside what A's widened the table to: the head's bounds stand, as stock's
    // re-drive leaves them (B's own statistics rows, authored against the base, are narrower).
    race(
        "INSERT INTO t VALUES (1000, 'zzz'), (-50, 'aaa'), (3, NULL)",
        null,
        "INSERT INTO t VALUES (7, 'm')",
        false);
  }

  @Test
  void appendsToTwoTables_areRebasedAsStockRedrivesThem() throws Exception {
    race(
        "INSERT INTO p VALUES ('x', 7), ('z', 9)",
        null,
        "INSERT INTO t SELECT range::INTEGER, 'w' || range FROM range(100, 130)",
        false);
  }

  @Test
  void aPartitionedAppendAfterAnotherOne_isRebased() throws Exception {
    race("INSERT INTO p VALUES ('x', 3)", null, "INSERT INTO p VALUES ('x', 5), ('q', 6)", false);
  }

  @Test
  void aDeleteAfterAnAppendToAnotherTable_isRebased() throws Exception {
    race("INSERT INTO p VALUES ('y', 4)", null, "DELETE FROM t WHERE a = 3", false);
  }

  @Test
  void aDeleteOfAWholeFileAfterAnAppendToAnotherTable_isRebased() throws Exception {
    // Every row of t's file deleted: DuckLake ends the data file instead of writing a delete file.
    race("INSERT INTO p VALUES ('y', 4)", null, "DELETE FROM t WHERE a >= 0", false);
  }

  @Test
  void aSecondDeleteFromOneFileAfterAnAppendToAnotherTable_isRebased() throws Exception {
    // t's file has a delete file at the base: DuckLake replaces it (the old one deleted outright
    // and scheduled, a new one backdated to the old one's begin, partial_max the new snapshot).
    String first = "DELETE FROM t WHERE a = 0";
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows before = StagedCapture.read(stock);
    stock.execute(first);
    lakes.catalog.commitStaged(StagedCapture.between(base, before, StagedCapture.read(stock)));
    author.execute(first);
    race("INSERT INTO p VALUES ('y', 4)", null, "DELETE FROM t WHERE a = 1", false);
  }

  @Test
  void anAppendAfterATableCreation_movesTheSchemaVersionAndCatalogCounter() throws Exception {
    race(
        "CREATE TABLE u (x INTEGER)",
        tx -> tx.createTable(0, "u", List.of(ColumnDef.of("x", "int32"))),
        "INSERT INTO t VALUES (9, 'nine')",
        false);
  }

  @Test
  void aMergeAfterAnAppendToItsTable_isRebased() throws Exception {
    landEverywhere("INSERT INTO t VALUES (5, 'five'), (6, 'six')");
    race(
        "INSERT INTO t VALUES (9, 'nine')",
        null,
        "CALL ducklake_merge_adjacent_files('lake', 't')",
        false);
  }

  @Test
  void anAppendAfterAMergeOfItsTable_isRebased() throws Exception {
    landEverywhere("INSERT INTO t VALUES (5, 'five'), (6, 'six')");
    race(
        "CALL ducklake_merge_adjacent_files('lake', 't')",
        null,
        "INSERT INTO t VALUES (9, 'nine')",
        false);
  }

  @Test
  void aMergeAfterADeleteFromItsTable_isAConflict() throws Exception {
    landEverywhere("INSERT INTO t VALUES (5, 'five'), (6, 'six')");
    race(
        "DELETE FROM t WHERE a = 2", null, "CALL ducklake_merge_adjacent_files('lake', 't')", true);
  }

  @Test
  void anAppendAfterADeleteFromItsTable_isAConflict() throws Exception {
    race("DELETE FROM t WHERE a = 2", null, "INSERT INTO t VALUES (9, 'nine')", true);
  }

  @Test
  void aDeleteAfterAnAppendToItsTable_isAConflict() throws Exception {
    race("INSERT INTO t VALUES (9, 'nine')", null, "DELETE FROM t WHERE a = 1", true);
  }

  @Test
  void twoDeletesFromOneFile_areAConflict() throws Exception {
    race("DELETE FROM t WHERE a = 2", null, "DELETE FROM t WHERE a = 1", true);
  }

  @Test
  void anAppendAfterItsTableWasAltered_isAConflict() throws Exception {
    race(
        "ALTER TABLE t ADD COLUMN c INTEGER",
        tx -> tx.addColumn(1, ColumnDef.of("c", "int32")),
        "INSERT INTO t VALUES (9, 'nine')",
        true);
  }

  @Test
  void anAppendAfterItsTableWasDropped_isAConflict() throws Exception {
    race("DROP TABLE t", tx -> tx.dropTable(1), "INSERT INTO t VALUES (9, 'nine')", true);
  }

  /**
   * Races A against B from the present base, on stock (B re-driven or refused by stock itself) and
   * on ours (A, then B's rows authored against the base through the door), and compares. {@code
   * aOurs} is A through the verbs when A is DDL, which the door does not take; else A's own rows go
   * through the door.
   */
  private void race(String a, CommitBody aOurs, String b, boolean conflicts) throws Exception {
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows authorBefore = StagedCapture.read(author);
    author.execute(b);
    StagedRows bRows = StagedCapture.between(base, authorBefore, StagedCapture.read(author));
    assertEquals(base + 1, snapshotOf(bRows), "B was authored against the base");

    CommitOutcome stockB;
    long firstFileOfB;
    try (ReferenceSession bSession = stock.session()) {
      bSession.begin();
      bSession.execute(b);
      CommitCapture.Rows beforeA = StagedCapture.read(stock);
      stock.execute(a);
      if (aOurs != null) {
        lakes.catalog.commit(aOurs);
      } else {
        lakes.catalog.commitStaged(StagedCapture.between(base, beforeA, StagedCapture.read(stock)));
      }
      assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "after A: " + a);
      firstFileOfB =
          ((Number)
                  stock
                      .query(
                          "SELECT max(next_file_id) AS f FROM "
                              + stock.metadataTable("ducklake_snapshot"))
                      .get(0)
                      .get("f"))
              .longValue();
      stockB = bSession.tryCommit();
    }
    Head afterA = lakes.catalog.head();
    assertEquals(base + 1, afterA.snapshotId());

    if (conflicts) {
      assertFalse(stockB.committed(), "stock re-drove B: " + b);
      assertTrue(stockB.isConflict(), "stock failed otherwise: " + stockB);
      CommitConflictException refused =
          assertThrows(CommitConflictException.class, () -> lakes.catalog.commitStaged(bRows));
      assertTrue(refused.getMessage().contains("conflict"), refused.getMessage());
      assertEquals(afterA, lakes.catalog.head(), "a refused B writes nothing");
      assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), b);
      return;
    }
    assertTrue(stockB.committed(), "stock refused B: " + stockB);
    long landed = lakes.catalog.commitStaged(withStockPaths(bRows, firstFileOfB));
    assertEquals(base + 2, landed, "B lands after A");
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "after B: " + b);
  }

  private static long snapshotOf(StagedRows rows) {
    return rows.ops().stream()
        .map(StagedRows.Op::row)
        .filter(SnapshotRow.class::isInstance)
        .map(r -> ((SnapshotRow) r).snapshotId())
        .findFirst()
        .orElseThrow();
  }

  /**
   * {@code rows} with the paths and sizes of the data and delete files stock's B wrote (ids from
   * {@code firstFile} on), matched in id order.
   */
  private StagedRows withStockPaths(StagedRows rows, long firstFile) throws Exception {
    List<Map<String, Object>> dataPaths =
        stockFiles("ducklake_data_file", "data_file_id", firstFile);
    List<Map<String, Object>> deletePaths =
        stockFiles("ducklake_delete_file", "delete_file_id", firstFile);
    List<DuckLakeRow> data =
        rows.ops().stream()
            .filter(StagedRows.Insert.class::isInstance)
            .map(StagedRows.Op::row)
            .filter(DataFileRow.class::isInstance)
            .sorted(Comparator.comparing(r -> ((DataFileRow) r).dataFileId()))
            .toList();
    List<DuckLakeRow> deletes =
        rows.ops().stream()
            .filter(StagedRows.Insert.class::isInstance)
            .map(StagedRows.Op::row)
            .filter(DeleteFileRow.class::isInstance)
            .sorted(Comparator.comparing(r -> ((DeleteFileRow) r).deleteFileId()))
            .toList();
    assertEquals(dataPaths.size(), data.size(), "data files of B");
    assertEquals(
        deletePaths.size(),
        deletes.size(),
        "delete files of B: "
            + stock.query("SELECT * FROM " + stock.metadataTable("ducklake_delete_file"))
            + " ours "
            + deletes);
    List<StagedRows.Op> out = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      DuckLakeRow row = op.row();
      if (op instanceof StagedRows.Delete del && row instanceof DeleteFileRow d) {
        // A delete file of the base, replaced: named as ours (stock's) named it.
        String ours =
            lakes.catalog.snapshot().deleteFiles(d.tableId()).stream()
                .filter(f -> f.deleteFileId() == d.deleteFileId())
                .findFirst()
                .orElseThrow()
                .path();
        out.add(new StagedRows.Delete(deleteWithFacts(d, ours, d.fileSizeBytes(), d.footerSize())));
        continue;
      }
      if (row instanceof FilesScheduledForDeletionRow sched) {
        String path =
            (String)
                stock
                    .query(
                        "SELECT path FROM "
                            + stock.metadataTable("ducklake_files_scheduled_for_deletion")
                            + " WHERE data_file_id = "
                            + sched.dataFileId())
                    .get(0)
                    .get("path");
        out.add(
            new StagedRows.Insert(
                new FilesScheduledForDeletionRow(
                    sched.dataFileId(), path, sched.pathIsRelative(), sched.scheduleStart())));
        continue;
      }
      if (op instanceof StagedRows.Delete && row instanceof DataFileRow f) {
        // An input of a merge, of the base: named as ours (stock's) named it.
        out.add(new StagedRows.Delete(withFacts(f, ourPath(f), f.fileSizeBytes(), f.footerSize())));
        continue;
      }
      if (op instanceof StagedRows.Delete) {
        out.add(op);
        continue;
      }
      if (op instanceof StagedRows.End e) {
        // A file of the base: the author lake named it otherwise than ours (stock's) did.
        DataFileRow f = (DataFileRow) e.row();
        String ours =
            lakes.catalog.snapshot().dataFiles(f.tableId()).stream()
                .filter(d -> d.dataFileId() == f.dataFileId())
                .findFirst()
                .orElseThrow()
                .path();
        out.add(
            new StagedRows.End(
                withFacts(f, ours, f.fileSizeBytes(), f.footerSize()), e.endSnapshot()));
        continue;
      }
      if (row instanceof DataFileRow f) {
        Map<String, Object> facts = dataPaths.get(data.indexOf(f));
        row =
            withFacts(
                f,
                (String) facts.get("path"),
                size(facts, "file_size_bytes"),
                size(facts, "footer_size"));
      } else if (row instanceof DeleteFileRow d) {
        Map<String, Object> facts = deletePaths.get(deletes.indexOf(d));
        row =
            deleteWithFacts(
                d,
                (String) facts.get("path"),
                size(facts, "file_size_bytes"),
                size(facts, "footer_size"));
      }
      out.add(new StagedRows.Insert(row));
    }
    return new StagedRows(rows.baseSnapshotId(), out);
  }

  /** The path our lake holds data file {@code f} under. */
  private String ourPath(DataFileRow f) {
    return lakes.catalog.snapshot().dataFiles(f.tableId()).stream()
        .filter(d -> d.dataFileId() == f.dataFileId())
        .findFirst()
        .orElseThrow()
        .path();
  }

  /** {@code f} with another path and sizes. */
  private static DataFileRow withFacts(DataFileRow f, String path, Long size, Long footer) {
    return new DataFileRow(
        f.dataFileId(),
        f.tableId(),
        f.beginSnapshot(),
        f.endSnapshot(),
        f.fileOrder(),
        path,
        f.pathIsRelative(),
        f.fileFormat(),
        f.recordCount(),
        size,
        footer,
        f.rowIdStart(),
        f.partitionId(),
        f.encryptionKey(),
        f.mappingId(),
        f.partialMax());
  }

  /** {@code d} with another path and sizes. */
  private static DeleteFileRow deleteWithFacts(
      DeleteFileRow d, String path, Long size, Long footer) {
    return new DeleteFileRow(
        d.deleteFileId(),
        d.tableId(),
        d.beginSnapshot(),
        d.endSnapshot(),
        d.dataFileId(),
        path,
        d.pathIsRelative(),
        d.format(),
        d.deleteCount(),
        size,
        footer,
        d.encryptionKey(),
        d.partialMax());
  }

  private static Long size(Map<String, Object> facts, String column) {
    return ((Number) facts.get(column)).longValue();
  }

  private List<Map<String, Object>> stockFiles(String table, String idColumn, long firstFile)
      throws Exception {
    return stock.query(
        "SELECT path, file_size_bytes, footer_size FROM "
            + stock.metadataTable(table)
            + " WHERE "
            + idColumn
            + " >= "
            + firstFile
            + " ORDER BY "
            + idColumn);
  }
}
