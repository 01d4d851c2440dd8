package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.store.Concurrently;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Races on real SlateDB. A race is forced deterministically: the first run of one closure makes
 * another thread commit, and waits for it, before returning; its store transaction began before
 * that commit, so its submission loses the head and is classified.
 */
class CommitRacesTest {

  /** A body whose first {@code races} runs each wait for {@code rival} committing elsewhere. */
  /**
   * Commits as an application under heavy contention should: 16 threads racing one head can lose
   * ten benign races in a row on a loaded machine, and {@link RetryBudgetExhaustedException}
   * promises that nothing was written, so the operation is driven again. The invariants checked
   * afterwards (dense ids, no collision) are what a re-drive must not break.
   */
  private static long commitRedriving(CommitLake lake, CommitBody body) {
    for (int drive = 1; ; drive++) {
      try {
        return lake.catalog.commit(body);
      } catch (RetryBudgetExhaustedException lostTenRaces) {
        if (drive == 20) {
          throw lostTenRaces;
        }
      }
    }
  }

  @Test
  void disjointCommits_bothLand_theLoserReRunsItsClosure() {
    try (CommitLake lake = new CommitLake()) {
      tablesAAndB(lake);
      AtomicInteger runs = new AtomicInteger();
      long id =
          lake.catalog.commit(
              lake.racing(
                  1,
                  tx -> tx.addColumn(2, ColumnDef.of("y", "int64")),
                  runs,
                  tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 4, 10, 1))));
      assertEquals(2, runs.get(), "the loser ran its closure again");
      assertEquals(3, id);
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("inserted_into_table:1", head.info().changesMade());
      assertEquals("altered_table:2", lake.catalog.snapshotAt(2).info().changesMade());
      assertEquals(2, head.columns(2).size());
      assertEquals(1, head.dataFiles(1).size());
    }
  }

  @Test
  void appendsToOneTable_bothLand_withRowIdsAboveTheWinners() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.registerDataFile(1, NewDataFile.parquet("winner", 10, 10, 1)),
              runs,
              tx -> tx.registerDataFile(1, NewDataFile.parquet("loser", 5, 10, 1))));
      List<DataFileInfo> files = lake.catalog.snapshot().dataFiles(1);
      assertEquals(List.of("winner", "loser"), files.stream().map(DataFileInfo::path).toList());
      assertEquals(0, files.get(0).rowIdStart().getAsLong());
      assertEquals(10, files.get(1).rowIdStart().getAsLong());
      assertEquals(List.of(0L, 1L), files.stream().map(DataFileInfo::dataFileId).toList());
      assertEquals(15, lake.catalog.snapshot().tableStats(1).orElseThrow().nextRowId());
    }
  }

  @Test
  void sameNameCreates_oneWins_theOtherReRunsIntoAlreadyExists() {
    try (CommitLake lake = new CommitLake()) {
      AtomicInteger runs = new AtomicInteger();
      AlreadyExistsException e =
          assertThrows(
              AlreadyExistsException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          tx -> tx.createTable(0, "orders", List.of(ColumnDef.of("a", "int64"))),
                          runs,
                          tx -> tx.createTable(0, "Orders", List.of(ColumnDef.of("b", "int64"))))));
      assertEquals(ErrorCode.ALREADY_EXISTS, e.code());
      assertEquals(2, runs.get());
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(1, head.tables().size(), "never two live tables with one name");
      assertEquals("a", head.columns(head.tables().get(0).tableId()).get(0).name());
      assertEquals(1, head.snapshotId());
    }
  }

  @Test
  void twoAltersOfOneTable_areACommitConflict_andTheLoserWritesNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      AtomicInteger runs = new AtomicInteger();
      CommitConflictException e =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          tx -> tx.addColumn(1, ColumnDef.of("y", "int64")),
                          runs,
                          tx -> tx.renameColumn(1, 1, "z"))));
      assertEquals(ErrorCode.COMMIT_CONFLICT, e.code());
      assertTrue(e.getMessage().contains("conflict"), e.getMessage());
      assertEquals(1, runs.get(), "a true conflict is not re-run");
      assertEquals(2, lake.catalog.head().snapshotId());
      assertEquals("x", lake.catalog.snapshot().columns(1).get(0).name());
    }
  }

  @Test
  void anInsertAfterAConcurrentDrop_isACommitConflict() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      assertThrows(
          CommitConflictException.class,
          () ->
              lake.catalog.commit(
                  lake.racing(
                      1,
                      tx -> tx.dropTable(1),
                      tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 1, 1, 1)))));
      assertTrue(lake.catalog.snapshot().tables().isEmpty());
    }
  }

  @Test
  void twoCreateTableAs_withTheSameProvisionalId_bothLand() {
    try (CommitLake lake = new CommitLake()) {
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> {
                long t = tx.createTable(0, "a", List.of(ColumnDef.of("x", "int64")));
                tx.registerDataFile(t, NewDataFile.parquet("a", 1, 1, 1));
              },
              runs,
              tx -> {
                long t = tx.createTable(0, "b", List.of(ColumnDef.of("x", "int64")));
                tx.registerDataFile(t, NewDataFile.parquet("b", 1, 1, 1));
              }));
      assertEquals(2, runs.get());
      assertEquals(
          "created_table:\"main\".\"b\",inserted_into_table:2",
          lake.catalog.snapshot().info().changesMade());
      assertEquals(2, lake.catalog.snapshot().tables().size());
    }
  }

  @Test
  void optionCommits_neverConflict() {
    try (CommitLake lake = new CommitLake()) {
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.setOption(OptionScope.global(), "k", "theirs"),
              runs,
              tx -> tx.setOption(OptionScope.global(), "k", "mine")));
      assertEquals(2, runs.get());
      assertEquals("mine", lake.catalog.snapshot().option(OptionScope.global(), "k").orElseThrow());
      assertEquals(0, lake.catalog.head().snapshotId());
      assertEquals(2, lake.catalog.head().batchSeq());
    }
  }

  @Test
  void aWriteStorm_endsInRetryBudgetExhausted_notAHang() {
    try (CommitLake lake = new CommitLake()) {
      tablesAAndB(lake);
      AtomicInteger runs = new AtomicInteger();
      AtomicInteger rivals = new AtomicInteger();
      RetryBudgetExhaustedException e =
          assertThrows(
              RetryBudgetExhaustedException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          Integer.MAX_VALUE,
                          tx ->
                              tx.registerDataFile(
                                  2, NewDataFile.parquet("r" + rivals.incrementAndGet(), 1, 1, 1)),
                          runs,
                          tx -> tx.registerDataFile(1, NewDataFile.parquet("mine", 1, 1, 1)))));
      assertEquals(ErrorCode.RETRY_BUDGET_EXHAUSTED, e.code());
      assertEquals(10, runs.get());
      String text = e.getMessage().toLowerCase(Locale.ROOT);
      for (String word : List.of("primary key", "unique", "conflict", "concurrent")) {
        assertFalse(text.contains(word), () -> "'" + word + "' in: " + e.getMessage());
      }
      assertTrue(lake.catalog.snapshot().dataFiles(1).isEmpty(), "nothing of it was written");
      assertEquals(10, lake.catalog.snapshot().dataFiles(2).size());
    }
  }

  @Test
  void sixteenThreadsAppendingToOneTable_landWithDenseRowIds_andNoCounterCollision()
      throws Exception {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      int threads = 16;
      int perThread = 5;
      long expectedRows = 0;
      for (int thread = 0; thread < threads; thread++) {
        for (int i = 0; i < perThread; i++) {
          expectedRows += 1 + thread + i;
        }
      }
      List<List<Long>> committed =
          Concurrently.results(
              threads,
              thread -> {
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                  long rows = 1 + thread + i;
                  String path = "t" + thread + "-" + i;
                  ids.add(
                      commitRedriving(
                          lake,
                          tx -> tx.registerDataFile(1, NewDataFile.parquet(path, rows, 8, 1))));
                }
                return ids;
              });
      Set<Long> snapshotIds = new HashSet<>();
      committed.forEach(snapshotIds::addAll);
      assertEquals(threads * perThread, snapshotIds.size(), "every commit minted its own id");
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(1 + threads * perThread, head.snapshotId());
      List<DataFileInfo> files = new ArrayList<>(head.dataFiles(1));
      files.sort(Comparator.comparingLong(f -> f.rowIdStart().getAsLong()));
      long next = 0;
      for (DataFileInfo f : files) {
        assertEquals(next, f.rowIdStart().getAsLong(), "dense, non-overlapping row ids");
        next += f.recordCount();
      }
      assertEquals(expectedRows, next);
      assertEquals(expectedRows, head.tableStats(1).orElseThrow().nextRowId());
      Set<Long> fileIds = new HashSet<>();
      files.forEach(f -> fileIds.add(f.dataFileId()));
      assertEquals(threads * perThread, fileIds.size());
      // Counters never regress: each snapshot advances next_file_id by exactly one.
      for (long id = 2; id <= head.snapshotId(); id++) {
        assertEquals(id - 1, lake.catalog.snapshotAt(id).info().nextFileId());
        assertEquals(2, lake.catalog.snapshotAt(id).info().nextCatalogId());
      }
    }
  }

  /** Tables a (id 1) and b (id 2) in schema main, each with one column x. */
  private static void tablesAAndB(CommitLake lake) {
    lake.catalog.commit(
        tx -> {
          tx.createTable(0, "a", List.of(ColumnDef.of("x", "int64")));
          tx.createTable(0, "b", List.of(ColumnDef.of("x", "int64")));
        });
  }

  private static void twoFiles(CommitLake lake) {
    lake.catalog.commit(
        tx -> {
          long t = tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64")));
          tx.registerDataFile(t, NewDataFile.parquet("f0", 10, 10, 1));
          tx.registerDataFile(t, NewDataFile.parquet("f1", 10, 10, 1));
        });
  }

  @Test
  void deletesOfDisjointDataFiles_bothLand() {
    try (CommitLake lake = new CommitLake()) {
      twoFiles(lake);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              tx -> tx.registerDeleteFile(1, NewDeleteFile.parquet(0, "d0", 2, 10, 1)),
              runs,
              tx -> tx.registerDeleteFile(1, NewDeleteFile.parquet(1, "d1", 3, 10, 1))));
      assertEquals(2, runs.get());
      assertEquals(2, lake.catalog.snapshot().deleteFiles(1).size());
      assertEquals(List.of(1L), lake.catalog.snapshot().info().deletedDataFileIds());
    }
  }

  @Test
  void deletesOfOneDataFile_areACommitConflict() {
    try (CommitLake lake = new CommitLake()) {
      twoFiles(lake);
      CommitConflictException e =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          tx -> tx.registerDeleteFile(1, NewDeleteFile.parquet(0, "d0", 2, 10, 1)),
                          tx ->
                              tx.registerDeleteFile(
                                  1, NewDeleteFile.parquet(0, "d0b", 3, 10, 1)))));
      assertTrue(e.getMessage().contains("conflict"));
      assertEquals(1, lake.catalog.snapshot().deleteFiles(1).size());
      assertEquals("d0", lake.catalog.snapshot().deleteFiles(1).get(0).path());
    }
  }

  @Test
  void sixteenThreadsCreatingTables_getDistinctDenseCatalogIds() throws Exception {
    try (CommitLake lake = new CommitLake()) {
      int threads = 16;
      Concurrently.run(
          threads,
          thread -> {
            for (int i = 0; i < 3; i++) {
              String name = "t" + thread + "_" + i;
              commitRedriving(
                  lake,
                  tx -> {
                    long id = tx.createTable(0, name, List.of(ColumnDef.of("x", "int64")));
                    tx.registerDataFile(id, NewDataFile.parquet(name, 4, 8, 1));
                  });
            }
          });
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(threads * 3, head.snapshotId());
      List<Long> ids = head.tables().stream().map(t -> t.tableId()).sorted().toList();
      List<Long> expected = new ArrayList<>();
      for (long id = 1; id <= threads * 3; id++) {
        expected.add(id);
      }
      assertEquals(expected, ids, "catalog ids are dense and distinct");
      assertEquals(threads * 3 + 1, head.info().nextCatalogId());
      assertEquals(threads * 3, head.info().nextFileId());
      for (long id = 1; id <= head.snapshotId(); id++) {
        var info = lake.catalog.snapshotAt(id).info();
        assertEquals(id + 1, info.nextCatalogId(), "next_catalog_id at " + id);
        assertEquals(id, info.nextFileId(), "next_file_id at " + id);
        assertEquals(id, info.schemaVersion(), "schema_version at " + id);
      }
    }
  }
}
