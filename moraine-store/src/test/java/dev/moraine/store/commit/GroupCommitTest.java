package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.Concurrently;
import dev.moraine.store.FaultInjector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Group commit on real SlateDB: concurrent commits share one batch and one write-ahead-log PUT,
 * each member stages against the members before it and mints its own snapshot, the batch is the
 * unit of failure, and every member is answered only once its batch is durable and published.
 */
class GroupCommitTest {
  private static final List<ColumnDef> X = List.of(ColumnDef.of("x", "int64"));

  private static CommitBody file(long table, String path, long rows) {
    return tx -> tx.registerDataFile(table, NewDataFile.parquet(path, rows, 100, 10));
  }

  /** Creates {@code n} tables t0..t(n-1) in one group; returns their ids. */
  private static List<Long> tables(Catalog catalog, int n) {
    List<CommitBody> bodies = new ArrayList<>();
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      int k = i;
      bodies.add(tx -> ids[k] = tx.createTable(0, "t" + k, X));
    }
    catalog.commitGroup(bodies);
    List<Long> out = new ArrayList<>();
    for (long id : ids) {
      out.add(id);
    }
    return out;
  }

  @Test
  void aBurstOfConcurrentCommits_costsTwoWalPuts_whenTheFirstFlushIsHeld() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      List<Long> tables = tables(lake.catalog, 64);
      long head = lake.catalog.head().snapshotId();
      long putsBefore = lake.walPuts();
      lake.injector.holdPuts(FaultInjector.WAL);
      List<CompletableFuture<Long>> commits = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(64);
      for (int i = 0; i < 64; i++) {
        long table = tables.get(i);
        commits.add(
            CompletableFuture.supplyAsync(
                () -> lake.catalog.commit(file(table, "f" + table, 3)), pool));
      }
      // Every commit is written to the store (the head in memory shows them all) while the first
      // flush is held: they can only ride the flush after it.
      GroupLake.await("every commit applied", () -> lake.catalog.head().snapshotId() == head + 64);
      for (CompletableFuture<Long> c : commits) {
        assertFalse(c.isDone(), "a commit returned before its batch was durable");
      }
      lake.injector.releasePuts();
      List<Long> ids = new ArrayList<>();
      for (CompletableFuture<Long> c : commits) {
        ids.add(c.get(20, TimeUnit.SECONDS));
      }
      Collections.sort(ids);
      for (int i = 0; i < 64; i++) {
        assertEquals(head + 1 + i, ids.get(i), "each commit minted its own consecutive snapshot");
      }
      assertTrue(
          lake.walPuts() - putsBefore <= 2,
          "64 commits cost " + (lake.walPuts() - putsBefore) + " log PUTs");
      CommitStatistics stats = lake.catalog.commitStatistics();
      assertTrue(stats.checkpointsPublished() >= 1, "acknowledgement followed a publication");
      pool.shutdown();
    }
  }

  @Test
  void concurrentCommits_shareFlushes_withoutAnyHold() throws Exception {
    try (GroupLake lake =
        new GroupLake(CatalogOptions.defaults().withFlushSpacing(Duration.ofMillis(100)))) {
      List<Long> tables = tables(lake.catalog, 64);
      long putsBefore = lake.walPuts();
      Concurrently.run(64, t -> lake.catalog.commit(file(tables.get(t), "f" + t, 2)));
      long puts = lake.walPuts() - putsBefore;
      assertTrue(puts <= 8, "64 concurrent commits cost " + puts + " log PUTs");
      assertEquals(128, lake.catalog.head().snapshotId());
    }
  }

  @Test
  void aMember_stagesAgainstTheMembersBeforeIt_andTimeTravelSeesEachOnItsOwn() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      CountDownLatch release = lake.holdCommitThread();
      long before = lake.catalog.head().snapshotId();
      long puts = lake.walPuts();
      // Both queue behind the held commit and join its batch, in this order.
      CompletableFuture<Long> create =
          CompletableFuture.supplyAsync(
              () -> lake.catalog.commit(tx -> tx.createTable(0, "shared", X)));
      Thread.sleep(200);
      CompletableFuture<Long> insert =
          CompletableFuture.supplyAsync(
              () ->
                  lake.catalog.commit(
                      tx -> {
                        long id = tx.tableByName(0, "shared").orElseThrow().tableId();
                        tx.registerDataFile(id, NewDataFile.parquet("s1", 5, 100, 10));
                      }));
      Thread.sleep(200);
      release.countDown();
      long created = create.get(20, TimeUnit.SECONDS);
      long inserted = insert.get(20, TimeUnit.SECONDS);
      assertEquals(before + 1, created);
      assertEquals(before + 2, inserted);
      assertEquals(1, lake.walPuts() - puts, "the held commit and both members shared one PUT");
      long table = lake.catalog.snapshot().tableByName(0, "shared").orElseThrow().tableId();
      assertEquals(List.of(), lake.catalog.snapshotAt(created).dataFiles(table));
      List<DataFileInfo> files = lake.catalog.snapshotAt(inserted).dataFiles(table);
      assertEquals(1, files.size());
      assertEquals(
          0,
          files.get(0).rowIdStart().orElseThrow(),
          "row ids from the table the member before made");
    }
  }

  @Test
  void aGroup_landsEveryMemberInOrder_orNoneOfThem() {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      long[] table = new long[1];
      List<Long> ids =
          lake.catalog.commitGroup(
              List.of(
                  tx -> table[0] = tx.createTable(0, "g", X),
                  tx -> {
                    long id = tx.tableByName(0, "g").orElseThrow().tableId();
                    tx.registerDataFile(id, NewDataFile.parquet("g1", 4, 100, 10));
                  },
                  tx -> tx.renameTable(table[0], "g2")));
      assertEquals(List.of(before + 1, before + 2, before + 3), ids);
      CatalogSnapshot head = lake.catalog.snapshot();
      assertTrue(head.tableByName(0, "g2").isPresent());
      assertEquals(1, head.dataFiles(table[0]).size());
      assertTrue(lake.catalog.snapshotAt(before + 2).tableByName(0, "g").isPresent());

      // A group whose last member throws writes nothing, its earlier members included.
      long standing = lake.catalog.head().snapshotId();
      IllegalStateException thrown =
          assertThrows(
              IllegalStateException.class,
              () ->
                  lake.catalog.commitGroup(
                      List.of(
                          tx -> tx.createTable(0, "never", X),
                          tx -> {
                            throw new IllegalStateException("the second member fails");
                          })));
      assertEquals("the second member fails", thrown.getMessage());
      assertEquals(standing, lake.catalog.head().snapshotId());
      assertTrue(lake.catalog.snapshot().tableByName(0, "never").isEmpty());
    }
  }

  @Test
  void aFailingMember_leavesItsBatch_andTheOthersLandWithoutAGap() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      CountDownLatch release = lake.holdCommitThread();
      CompletableFuture<Long> first =
          CompletableFuture.supplyAsync(() -> lake.catalog.commit(tx -> tx.createSchema("a")));
      Thread.sleep(100);
      // A group that stages a write and then fails: the batch must be staged again without it.
      CompletableFuture<List<Long>> failing =
          CompletableFuture.supplyAsync(
              () ->
                  lake.catalog.commitGroup(
                      List.of(tx -> tx.createSchema("withdrawn"), tx -> tx.dropSchema(424242))));
      Thread.sleep(100);
      CompletableFuture<Long> last =
          CompletableFuture.supplyAsync(() -> lake.catalog.commit(tx -> tx.createSchema("b")));
      Thread.sleep(100);
      release.countDown();
      assertEquals(before + 1, first.get(20, TimeUnit.SECONDS));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> failing.get(20, TimeUnit.SECONDS));
      assertInstanceOf(NotFoundException.class, e.getCause());
      assertEquals(before + 2, last.get(20, TimeUnit.SECONDS), "no snapshot id was skipped");
      CatalogSnapshot head = lake.catalog.snapshot();
      assertTrue(head.schemaByName("a").isPresent());
      assertTrue(head.schemaByName("b").isPresent());
      assertTrue(head.schemaByName("withdrawn").isEmpty(), "nothing of the failed group landed");
    }
  }

  @Test
  void aLostRace_reRunsEveryMember_andOnlyATrueConflictFails() throws Exception {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "a", X));
      lake.catalog.commit(tx -> tx.createTable(0, "b", X));
      AtomicInteger firstRuns = new AtomicInteger();
      AtomicInteger secondRuns = new AtomicInteger();
      AtomicInteger thirdRuns = new AtomicInteger();
      // One group of three: the first member's first run makes another writer alter table 2,
      // so the batch loses the head. The inserts into table 1 are benign against it and run again;
      // the alter of table 2 conflicts with it.
      List<CommitBody> group =
          List.of(
              lake.racing(
                  1, tx -> tx.addColumn(2, ColumnDef.of("y", "int64")), firstRuns, file(1, "p", 2)),
              tx -> {
                secondRuns.incrementAndGet();
                tx.registerDataFile(1, NewDataFile.parquet("q", 3, 100, 10));
              },
              tx -> {
                thirdRuns.incrementAndGet();
                tx.registerDataFile(1, NewDataFile.parquet("r", 4, 100, 10));
              });
      List<Long> ids = lake.catalog.commitGroup(group);
      assertEquals(List.of(4L, 5L, 6L), ids, "the group landed above the rival's snapshot 3");
      assertEquals(2, firstRuns.get());
      assertEquals(2, secondRuns.get(), "every member ran again, not only the one that raced");
      assertEquals(2, thirdRuns.get());
      assertEquals(3, lake.catalog.snapshot().dataFiles(1).size());

      // A commit that alters table 2 while the rival alters it too: a conflict, for it alone.
      CommitConflictException conflict =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          tx -> tx.addColumn(2, ColumnDef.of("z1", "int64")),
                          tx -> tx.addColumn(2, ColumnDef.of("z2", "int64")))));
      assertTrue(conflict.getMessage().contains("conflict"));
    }
  }

  @Test
  void aFreshReader_afterACommitReturns_resolvesTheNewSnapshot() {
    try (GroupLake lake = new GroupLake()) {
      for (int i = 0; i < 5; i++) {
        long id = lake.catalog.commit(tx -> tx.createSchema("s" + System.nanoTime()));
        try (KvReader reader = lake.cleanProvider().openReader(ReaderMode.followLatest());
            ReadOnlyCatalog seen = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
          assertEquals(id, seen.head().snapshotId(), "a reader opened after the commit returned");
        }
      }
    }
  }

  @Test
  void anEmptyCommit_returnsOnlyOnceTheHeadItSawIsDurable() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      lake.injector.holdPuts(FaultInjector.WAL);
      CompletableFuture<Long> writing =
          CompletableFuture.supplyAsync(() -> lake.catalog.commit(tx -> tx.createSchema("w")));
      GroupLake.await("the write applied", () -> lake.catalog.head().snapshotId() == before + 1);
      CompletableFuture<Long> empty =
          CompletableFuture.supplyAsync(() -> lake.catalog.commit(tx -> {}));
      Thread.sleep(300);
      assertFalse(empty.isDone(), "an empty commit returned an id that was not durable yet");
      lake.injector.releasePuts();
      long landed = writing.get(20, TimeUnit.SECONDS);
      assertEquals(landed, empty.get(20, TimeUnit.SECONDS));
    }
  }

  @Test
  void aHandleKeptAfterARefusal_refusesVerbs() {
    try (GroupLake lake = new GroupLake()) {
      AtomicReference<Transaction> kept = new AtomicReference<>();
      assertThrows(
          NotFoundException.class,
          () ->
              lake.catalog.commit(
                  tx -> {
                    kept.set(tx);
                    tx.dropSchema(777);
                  }));
      assertThrows(InvalidArgumentException.class, () -> kept.get().createSchema("late"));
    }
  }

  @Test
  void aBodyThatCommitsOnItsOwnCatalog_isRefused_notDeadlocked() {
    try (GroupLake lake = new GroupLake()) {
      InvalidArgumentException e =
          assertThrows(
              InvalidArgumentException.class,
              () -> lake.catalog.commit(tx -> lake.catalog.commit(inner -> {})));
      assertTrue(e.getMessage().contains("must not commit"));
    }
  }

  @Test
  void aStoreWithItsOwnFlushTimer_isRefusedAsAWriter() {
    try (CommitLake lake = new CommitLake()) {
      dev.moraine.store.SlateStoreProvider timed =
          new dev.moraine.store.SlateStoreProvider(
              dev.moraine.store.StoreConfig.of(
                      dev.moraine.store.ObjectStoreSpec.inMemory(lake.name), "other")
                  .withSettings(
                      dev.moraine.store.StoreSettings.defaults()
                          .withFlushInterval(Duration.ofMillis(50))));
      try (var store = timed.openWriter()) {
        InvalidArgumentException e =
            assertThrows(
                InvalidArgumentException.class,
                () -> Catalog.open(store, CatalogOptions.defaults()));
        assertTrue(e.getMessage().contains("withFlushTimerOff"), e.getMessage());
      }
    }
  }

  @Test
  void manyThreads_manyCommits_noneLostAndRowIdsDense() throws Exception {
    int threads = 256;
    int each = 4;
    try (GroupLake lake =
        new GroupLake(CatalogOptions.defaults().withFlushSpacing(Duration.ofMillis(10)))) {
      lake.catalog.commit(tx -> tx.createTable(0, "all", X));
      List<List<Long>> ids =
          Concurrently.results(
              threads,
              t -> {
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < each; i++) {
                  mine.add(lake.catalog.commit(file(1, "f-" + t + "-" + i, 2)));
                }
                return mine;
              });
      long landed = ids.stream().mapToLong(List::size).sum();
      assertEquals((long) threads * each, landed);
      String dump = lake.reopenedDump();
      try (var store = lake.open(false);
          Catalog again = Catalog.open(store, lake.options)) {
        assertEquals(1 + threads * each, again.head().snapshotId());
        List<DataFileInfo> files = new ArrayList<>(again.snapshot().dataFiles(1));
        files.sort(
            (a, b) -> Long.compare(a.rowIdStart().orElseThrow(), b.rowIdStart().orElseThrow()));
        long next = 0;
        for (DataFileInfo f : files) {
          assertEquals(next, f.rowIdStart().orElseThrow(), "row ids dense");
          next += f.recordCount();
        }
        assertEquals(2L * threads * each, next);
      }
      assertTrue(dump.contains("\"snapshot_id\":" + (1 + threads * each)));
    }
  }
}
