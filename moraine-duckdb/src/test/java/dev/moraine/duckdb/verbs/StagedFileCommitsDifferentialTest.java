package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.session.CommitCapture;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The staged-row door against stock DuckLake 1.5.5 (inlining off): statements run on stock, the row
 * operations its commit made are read off its catalog ({@link StagedCapture}) and handed to {@code
 * commitStaged} on our side, which must then hold every ducklake_* row stock holds. The steps are
 * the data-only commits of files the door takes: inserts into a table (a data file, its column
 * statistics, the table's statistics updated), into a partitioned one (partition values), a DELETE
 * (a delete file) and a second DELETE of the same file (its delete file ended and replaced). Then
 * the refusals, each writing nothing.
 */
class StagedFileCommitsDifferentialTest {
  @TempDir Path dir;
  private PairedLakes lakes;
  private ReferenceDuckLake stock;

  @BeforeEach
  void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0), "staged");
    stock = lakes.stock;
    // Tables t (a int, b varchar) and p (k varchar, v bigint) partitioned by k, through the verbs
    // on our side: their rows are stock's (VerbDifferentialTest).
    stock.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
    lakes.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    stock.execute("CREATE TABLE p (k VARCHAR, v BIGINT)");
    lakes.catalog.commit(
        tx ->
            tx.createTable(
                0, "p", List.of(ColumnDef.of("k", "varchar"), ColumnDef.of("v", "int64"))));
    stock.execute("ALTER TABLE p SET PARTITIONED BY (k)");
    lakes.catalog.commit(tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1))));
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "the setup");
  }

  @AfterEach
  void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  /** Runs {@code sql} on stock, hands its commit's rows to ours, and compares every row. */
  private StagedRows step(String sql) throws Exception {
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows before = StagedCapture.read(stock);
    stock.execute(sql);
    StagedRows rows = StagedCapture.between(base, before, StagedCapture.read(stock));
    long landed = lakes.catalog.commitStaged(rows);
    assertEquals(base + 1, landed, sql);
    DuckLakeRowSet ours = lakes.ours();
    assertEquals(List.of(), RowComparison.differences(stock, ours), sql);
    return rows;
  }

  @Test
  void fileCommits_leaveStocksRows() throws Exception {
    StagedRows insert = step("INSERT INTO t SELECT range::INTEGER, 'v' || range FROM range(100)");
    assertTrue(
        insert.ops().stream().anyMatch(o -> o.row() instanceof DataFileRow),
        "the insert registered a file: " + insert.ops());
    step("INSERT INTO t VALUES (1000, 'zz'), (-7, NULL)");
    step("INSERT INTO p VALUES ('x', 1), ('y', 2), ('x', 3)");
    StagedRows delete = step("DELETE FROM t WHERE a < 10");
    // A second DELETE from the same file: DuckLake deletes its delete file outright, schedules it,
    // and writes a new one of every deleted position backdated to the old one's begin.
    long before = lakes.catalog.head().snapshotId();
    CommitCapture.Rows was = StagedCapture.read(stock);
    stock.execute("DELETE FROM t WHERE a BETWEEN 10 AND 14");
    StagedRows replace = StagedCapture.between(before, was, StagedCapture.read(stock));
    assertTrue(
        replace.ops().stream().anyMatch(o -> o instanceof StagedRows.Delete),
        "the old delete file is deleted: " + replace.ops());
    // The replacement is taken whole or not at all: without its new delete file (the old one's
    // deletions would come back in every snapshot), without its schedule, or with a schedule of
    // another path, it is refused and nothing is written.
    Head beforeHead = lakes.catalog.head();
    for (java.util.function.Predicate<StagedRows.Op> drop :
        List.<java.util.function.Predicate<StagedRows.Op>>of(
            o -> o instanceof StagedRows.Insert && o.row() instanceof DeleteFileRow,
            o -> o.row() instanceof FilesScheduledForDeletionRow)) {
      StagedRows partial =
          new StagedRows(before, replace.ops().stream().filter(drop.negate()).toList());
      InvalidArgumentException refused =
          assertThrows(InvalidArgumentException.class, () -> lakes.catalog.commitStaged(partial));
      assertTrue(refused.getMessage().contains("replacement"), refused.getMessage());
      assertEquals(beforeHead, lakes.catalog.head());
    }
    StagedRows elsewhere =
        new StagedRows(
            before,
            replace.ops().stream()
                .map(
                    o ->
                        o.row() instanceof FilesScheduledForDeletionRow f
                            ? (StagedRows.Op)
                                new StagedRows.Insert(
                                    new FilesScheduledForDeletionRow(
                                        f.dataFileId(),
                                        "main/t/some-data-file.parquet",
                                        f.pathIsRelative(),
                                        f.scheduleStart()))
                            : o)
                .toList());
    InvalidArgumentException wrongPath =
        assertThrows(InvalidArgumentException.class, () -> lakes.catalog.commitStaged(elsewhere));
    assertTrue(wrongPath.getMessage().contains("not the file's own path"), wrongPath.getMessage());
    assertEquals(beforeHead, lakes.catalog.head());
    assertEquals(before + 1, lakes.catalog.commitStaged(replace));
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "the replacement");
    // A second delete file for that data file, as if the first were not there: DuckLake replaces
    // the first instead (RFC 0006 §10), which this door does not take yet; refused, nothing
    // written.
    Head head = lakes.catalog.head();
    long nextFileId = lakes.catalog.snapshot().info().nextFileId();
    List<StagedRows.Op> again = new ArrayList<>();
    for (StagedRows.Op op : delete.ops()) {
      StagedRows.Insert i = (StagedRows.Insert) op;
      if (i.row() instanceof SnapshotRow s) {
        again.add(
            new StagedRows.Insert(
                new SnapshotRow(
                    head.snapshotId() + 1,
                    s.snapshotTime(),
                    s.schemaVersion(),
                    s.nextCatalogId(),
                    nextFileId + 1)));
      } else if (i.row() instanceof SnapshotChangesRow c) {
        again.add(
            new StagedRows.Insert(
                new SnapshotChangesRow(head.snapshotId() + 1, c.changesMade(), null, null, null)));
      } else if (i.row() instanceof DeleteFileRow d) {
        again.add(
            new StagedRows.Insert(
                new DeleteFileRow(
                    nextFileId,
                    d.tableId(),
                    head.snapshotId() + 1,
                    null,
                    d.dataFileId(),
                    "again-delete.parquet",
                    true,
                    d.format(),
                    d.deleteCount(),
                    d.fileSizeBytes(),
                    d.footerSize(),
                    null,
                    null)));
      }
    }
    InvalidArgumentException twice =
        assertThrows(
            InvalidArgumentException.class,
            () -> lakes.catalog.commitStaged(new StagedRows(head.snapshotId(), again)));
    assertTrue(twice.getMessage().contains("has a live delete file already"), twice.getMessage());
    assertEquals(head, lakes.catalog.head());
  }

  @Test
  void merges_leaveStocksRows_andAreTakenWholeOrNotAtAll() throws Exception {
    step("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
    step("INSERT INTO t VALUES (3, 'c')");
    step("INSERT INTO t VALUES (4, 'd'), (5, 'e')");
    step("INSERT INTO p VALUES ('x', 1), ('y', 2)");
    step("INSERT INTO p VALUES ('x', 3)");
    long before = lakes.catalog.head().snapshotId();
    CommitCapture.Rows was = StagedCapture.read(stock);
    stock.execute("CALL ducklake_merge_adjacent_files('lake', 't')");
    StagedRows merge = StagedCapture.between(before, was, StagedCapture.read(stock));
    assertTrue(
        merge.ops().stream()
            .anyMatch(o -> o instanceof StagedRows.Delete && o.row() instanceof DataFileRow),
        "the inputs are deleted outright: " + merge.ops());
    // Each part of the merge is required: without the merged file the rows would be gone, without
    // an input's delete it would be read twice, without a schedule its file would never be
    // cleaned up, and an input's column statistics go with it.
    Head head = lakes.catalog.head();
    boolean[] firstInput = {true};
    for (java.util.function.Predicate<StagedRows.Op> drop :
        List.<java.util.function.Predicate<StagedRows.Op>>of(
            o -> o instanceof StagedRows.Insert && o.row() instanceof DataFileRow,
            o -> {
              if (o instanceof StagedRows.Delete
                  && o.row() instanceof DataFileRow
                  && firstInput[0]) {
                firstInput[0] = false;
                return true;
              }
              return false;
            },
            o -> o.row() instanceof FilesScheduledForDeletionRow,
            o ->
                o instanceof StagedRows.Delete
                    && o.row() instanceof dev.moraine.ducklake.rows.FileColumnStatsRow)) {
      StagedRows partial =
          new StagedRows(before, merge.ops().stream().filter(drop.negate()).toList());
      assertThrows(InvalidArgumentException.class, () -> lakes.catalog.commitStaged(partial));
      assertEquals(head, lakes.catalog.head(), "a refused merge writes nothing");
    }
    // A merged file begun after some of its rows were visible would hide them from time travel.
    StagedRows late =
        new StagedRows(
            before,
            merge.ops().stream()
                .map(
                    o ->
                        o instanceof StagedRows.Insert && o.row() instanceof DataFileRow f
                            ? (StagedRows.Op)
                                new StagedRows.Insert(file(f, f.tableId(), f.beginSnapshot() + 1))
                            : o)
                .toList());
    InvalidArgumentException hidden =
        assertThrows(InvalidArgumentException.class, () -> lakes.catalog.commitStaged(late));
    assertTrue(hidden.getMessage().contains("visible"), hidden.getMessage());
    assertEquals(head, lakes.catalog.head());
    assertEquals(before + 1, lakes.catalog.commitStaged(merge));
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "the merge of t");
    // Rows of a merged file are deleted through a delete file of it, as of any other.
    step("DELETE FROM t WHERE a IN (2, 4)");
    step("CALL ducklake_merge_adjacent_files('lake', 'p')");
    step("INSERT INTO p VALUES ('x', 4)");
  }

  @Test
  void refusals_writeNothing() throws Exception {
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows before = StagedCapture.read(stock);
    stock.execute("INSERT INTO t VALUES (1, 'a')");
    StagedRows rows = StagedCapture.between(base, before, StagedCapture.read(stock));

    // A commit of ours lands first and alters the table: the rows rest on a snapshot that is no
    // longer the head, and cannot be rebased past the alter (StagedRebaseDifferentialTest pins
    // the rebase itself).
    lakes.catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("c", "int32")));
    Head head = lakes.catalog.head();
    CommitConflictException lost =
        assertThrows(CommitConflictException.class, () -> lakes.catalog.commitStaged(rows));
    assertTrue(lost.getMessage().contains("conflict"), lost.getMessage());
    assertEquals(head, lakes.catalog.head());

    // Authored against the head, but naming a table the lake does not have.
    List<StagedRows.Op> ops = new ArrayList<>();
    var info = lakes.catalog.snapshot().info();
    for (StagedRows.Op op : rows.ops()) {
      if (op.row() instanceof SnapshotRow s) {
        ops.add(
            new StagedRows.Insert(
                new SnapshotRow(
                    head.snapshotId() + 1,
                    s.snapshotTime(),
                    info.schemaVersion(),
                    info.nextCatalogId(),
                    s.nextFileId())));
      } else if (op.row() instanceof SnapshotChangesRow c) {
        ops.add(
            new StagedRows.Insert(
                new SnapshotChangesRow(
                    head.snapshotId() + 1, "inserted_into_table:99", null, null, null)));
      } else if (op.row() instanceof DataFileRow f) {
        ops.add(new StagedRows.Insert(file(f, 99L, head.snapshotId() + 1)));
      }
    }
    assertThrows(
        NotFoundException.class,
        () -> lakes.catalog.commitStaged(new StagedRows(head.snapshotId(), ops)));
    assertEquals(head, lakes.catalog.head());
    // A NULL where the lake needs a value is a malformed row, refused as such.
    List<StagedRows.Op> nullId =
        ops.stream()
            .map(
                o ->
                    o instanceof StagedRows.Insert i && i.row() instanceof DataFileRow f
                        ? (StagedRows.Op) new StagedRows.Insert(file(f, null, f.beginSnapshot()))
                        : o)
            .toList();
    InvalidArgumentException malformed =
        assertThrows(
            InvalidArgumentException.class,
            () -> lakes.catalog.commitStaged(new StagedRows(head.snapshotId(), nullId)));
    assertTrue(malformed.getMessage().contains("table_id is NULL"), malformed.getMessage());
    assertEquals(head, lakes.catalog.head());
    // Without its snapshot_changes row.
    List<StagedRows.Op> partial =
        ops.stream().filter(o -> !(o.row() instanceof SnapshotChangesRow)).toList();
    assertThrows(
        InvalidArgumentException.class,
        () -> lakes.catalog.commitStaged(new StagedRows(head.snapshotId(), partial)));
    assertEquals(head, lakes.catalog.head());

    // A table's creation is not a data-only commit.
    assertThrows(
        InvalidArgumentException.class,
        () ->
            lakes.catalog.commitStaged(
                new StagedRows(
                    head.snapshotId(),
                    List.of(
                        new StagedRows.Insert(
                            new TableRow(
                                9L,
                                java.util.UUID.fromString("00000000-0000-0000-0000-000000000009"),
                                head.snapshotId() + 1,
                                null,
                                0L,
                                "u",
                                "u/",
                                true))))));
    assertEquals(head, lakes.catalog.head());
  }

  /** {@code f} in table {@code tableId}, begun at {@code begin}. */
  private static DataFileRow file(DataFileRow f, Long tableId, long begin) {
    return new DataFileRow(
        f.dataFileId(),
        tableId,
        begin,
        null,
        f.fileOrder(),
        f.path(),
        f.pathIsRelative(),
        f.fileFormat(),
        f.recordCount(),
        f.fileSizeBytes(),
        f.footerSize(),
        f.rowIdStart(),
        f.partitionId(),
        f.encryptionKey(),
        f.mappingId(),
        f.partialMax());
  }
}
