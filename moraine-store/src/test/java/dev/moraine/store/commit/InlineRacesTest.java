package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Races of inlined writes on real SlateDB, forced as in {@link CommitRacesTest}: the first run of
 * one closure makes another thread commit before it returns, so its submission loses the head and
 * is classified. Stock DuckLake 1.5.5 decides the same pairs the same way (checked with two
 * connections on one DuckLake catalog): inlined inserts into one table both land; two inline
 * deletes from one table conflict whatever rows they name; a delete file and an inline delete both
 * land; a flush and an insert both land.
 */
class InlineRacesTest {

  private static List<Object> row(long a) {
    List<Object> r = new ArrayList<>();
    r.add(a);
    return r;
  }

  /** Table 1 with an int64 column, a 20-row data file (row ids 0..19) and rows 20, 21 inlined. */
  private static void seed(CommitLake lake) {
    lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
    lake.catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 20, 100, 10)));
    lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(100), row(101))));
  }

  private static List<Long> rowIds(CatalogSnapshot s) {
    return s.inlinedRows(1).rows().stream().map(InlinedRows.Row::rowId).toList();
  }

  @Test
  void inlinedInsertsIntoOneTable_bothLand_withDenseRowIds() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      AtomicInteger runs = new AtomicInteger();
      long[] mine = new long[1];
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.insertInlined(1, List.of(row(1), row(2), row(3))),
              runs,
              tx -> mine[0] = tx.insertInlined(1, List.of(row(4), row(5)))));
      assertEquals(2, runs.get(), "the loser re-ran");
      assertEquals(25, mine[0], "the loser's rows follow the winner's");
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(List.of(20L, 21L, 22L, 23L, 24L, 25L, 26L), rowIds(head));
      assertEquals(27, head.tableStats(1).orElseThrow().nextRowId());
      assertEquals("inlined_insert:1", head.info().changesMade());
    }
  }

  @Test
  void inlinedInsertAndFileInsert_bothLand_withDenseRowIds() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.registerDataFile(1, NewDataFile.parquet("g", 5, 10, 1)),
              runs,
              tx -> tx.insertInlined(1, List.of(row(4)))));
      CatalogSnapshot head = lake.catalog.snapshot();
      DataFileInfo g = head.dataFiles(1).get(1);
      assertEquals(22, g.rowIdStart().getAsLong());
      assertEquals(List.of(20L, 21L, 27L), rowIds(head));
    }
  }

  @Test
  void inlineDeletesFromOneTable_conflict_evenOnDifferentRows() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      CommitConflictException e =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1, tx -> tx.deleteRowInline(1, 20), tx -> tx.deleteRowInline(1, 21))));
      assertTrue(e.getMessage().contains("conflict"), e.getMessage());
      assertEquals(
          List.of(21L), rowIds(lake.catalog.snapshot()), "only the winner's delete landed");
    }
  }

  @Test
  void anInlineDeleteOfAFileRow_conflictsWithAnInlineDeleteOfAnInlinedRow() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      assertThrows(
          CommitConflictException.class,
          () ->
              lake.catalog.commit(
                  lake.racing(1, tx -> tx.deleteRowInline(1, 20), tx -> tx.deleteRowInline(1, 5))));
      assertTrue(lake.catalog.snapshot().history().inlinedFileDeletes().isEmpty());
    }
  }

  @Test
  void aDeleteFileAndAnInlineDeleteOfTheSameDataFile_bothLand_asInStockDuckLake() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.registerDeleteFile(1, NewDeleteFile.parquet(0, "d.parquet", 5, 64, 16)),
              runs,
              tx -> tx.deleteRowInline(1, 17)));
      assertEquals(2, runs.get(), "a benign race: the inline delete re-ran");
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(1, head.deleteFiles(1).size());
      assertEquals(1, head.history().inlinedFileDeletes().size());
      assertEquals("inlined_delete:1", head.info().changesMade());
    }
  }

  @Test
  void inlineDeletesFromDifferentTables_bothLand() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      lake.catalog.commit(tx -> tx.createTable(0, "u", List.of(ColumnDef.of("a", "int64"))));
      lake.catalog.commit(tx -> tx.insertInlined(2, List.of(row(7))));
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(1, tx -> tx.deleteRowInline(2, 0), runs, tx -> tx.deleteRowInline(1, 20)));
      assertEquals(2, runs.get());
      assertEquals(List.of(21L), rowIds(lake.catalog.snapshot()));
      assertTrue(lake.catalog.snapshot().inlinedRows(2).rows().isEmpty());
    }
  }

  /** A flush of whatever is inlined, with a file the closure sizes from what it sees. */
  private static CommitBody flushAll() {
    return tx -> {
      long n = tx.premise().history().inlinedRows(1).size();
      tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("flush-" + n, n, 50, 5)));
    };
  }

  @Test
  void aFlushThatLosesToAnInsert_reRuns_andFlushesTheNewRowsToo() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(1, tx -> tx.insertInlined(1, List.of(row(9))), runs, flushAll()));
      assertEquals(2, runs.get());
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("inline_flush:1", head.info().changesMade());
      DataFileInfo flushed = head.dataFiles(1).get(1);
      assertEquals("flush-3", flushed.path());
      assertEquals(20, flushed.rowIdStart().getAsLong());
      assertEquals(3, flushed.beginSnapshot(), "backdated to the first inlined rows");
      assertTrue(head.inlinedRows(1).rows().isEmpty());
    }
  }

  @Test
  void aFlushOfTheRowsItRead_thatLosesToAnInsert_leavesTheNewRowsInline() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      long read = lake.catalog.snapshot().snapshotId();
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.insertInlined(1, List.of(row(9))),
              runs,
              tx ->
                  tx.flushInlined(
                      1, InlineFlush.of(NewDataFile.parquet("read", 2, 50, 5)).through(read))));
      assertEquals(2, runs.get());
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(List.of(22L), rowIds(head), "the row inlined after the read stays inline");
      DataFileInfo flushed = head.dataFiles(1).get(1);
      assertEquals(
          List.of(20L, 2L), List.of(flushed.rowIdStart().getAsLong(), flushed.recordCount()));
      assertEquals(3, flushed.beginSnapshot());
      assertEquals(3, flushed.partialMax().getAsLong());
    }
  }

  @Test
  void anInsertThatLosesToAFlush_reRuns_andLandsAfterTheFlushedRows() {
    try (CommitLake lake = new CommitLake()) {
      seed(lake);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(1, flushAll(), runs, tx -> tx.insertInlined(1, List.of(row(9)))));
      assertEquals(2, runs.get());
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(List.of(22L), rowIds(head));
      assertEquals("flush-2", head.dataFiles(1).get(1).path());
    }
  }

  @Test
  void eightConcurrentInliners_landEveryRow_onceEach_withDenseIds() throws Exception {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        long base = w * 1000L;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5; i++) {
                    long value = base + i;
                    commitRedriving(
                        lake, tx -> tx.insertInlined(1, List.of(row(value), row(-value))));
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      CatalogSnapshot head = lake.catalog.snapshot();
      List<InlinedRows.Row> rows = head.inlinedRows(1).rows();
      assertEquals(80, rows.size());
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(i, rows.get(i).rowId(), "row ids are dense");
      }
      // Each commit's two rows are adjacent: value then its negation.
      for (int i = 0; i < rows.size(); i += 2) {
        assertEquals(-(Long) rows.get(i).values().get(0), rows.get(i + 1).values().get(0));
      }
      assertEquals(80, head.tableStats(1).orElseThrow().recordCount());
      assertEquals(41, head.info().snapshotId());
      assertEquals(40, head.info().nextFileId(), "one file id per inlining commit");
    }
  }

  private static void commitRedriving(CommitLake lake, CommitBody body) {
    for (int drive = 1; ; drive++) {
      try {
        lake.catalog.commit(body);
        return;
      } catch (RetryBudgetExhaustedException lostTenRaces) {
        if (drive == 20) {
          throw lostTenRaces;
        }
      }
    }
  }
}
