package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import dev.moraine.store.FaultInjector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Staged-row commits in group commit, on real SlateDB: commits DuckLake authored against one base
 * ride at most two log flushes, each rebased onto what landed or was staged before it (RFC 0006
 * §14), so that every one lands with its own consecutive snapshot, file ids and row ids stay dense,
 * and the table's statistics add up; a commit whose rebase is refused fails alone, and the others
 * land.
 */
class StagedGroupCommitTest {
  private static final int MEMBERS = 32;

  /** One append of {@code rows} rows, all holding the value {@code value}, authored at the base. */
  private static StagedRows append(SnapshotInfo base, long tableId, long columnId, int value) {
    long n = base.snapshotId() + 1;
    long file = base.nextFileId();
    long rows = value + 1;
    return new StagedRows(
        base.snapshotId(),
        List.of(
            new StagedRows.Insert(
                new SnapshotRow(
                    n, Instant.now(), base.schemaVersion(), base.nextCatalogId(), file + 1)),
            new StagedRows.Insert(
                new SnapshotChangesRow(n, "inserted_into_table:" + tableId, null, null, null)),
            new StagedRows.Insert(
                new DataFileRow(
                    file,
                    tableId,
                    n,
                    null,
                    null,
                    "data/f" + value + ".parquet",
                    true,
                    "parquet",
                    rows,
                    1000L + value,
                    100L,
                    0L,
                    null,
                    null,
                    null,
                    null)),
            new StagedRows.Insert(
                new FileColumnStatsRow(
                    file,
                    tableId,
                    columnId,
                    10L,
                    rows,
                    0L,
                    String.valueOf(value),
                    String.valueOf(value),
                    null,
                    null)),
            new StagedRows.Insert(new TableStatsRow(tableId, rows, rows, 1000L + value)),
            new StagedRows.Insert(
                new TableColumnStatsRow(
                    tableId,
                    columnId,
                    false,
                    null,
                    String.valueOf(value),
                    String.valueOf(value),
                    null))));
  }

  @Test
  void stagedAppendsFromOneBase_shareABatch_andLandRebased() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long table =
          lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      CatalogSnapshot before = lake.catalog.snapshot();
      long column = before.columns(table).get(0).columnId();
      SnapshotInfo base = before.info();
      long putsBefore = lake.walPuts();
      // The log's PUTs are held: every commit is written (the head in memory shows them all)
      // while the first flush waits, so however the commits arrive they ride at most two flushes.
      lake.injector.holdPuts(FaultInjector.WAL);
      ExecutorService pool = Executors.newFixedThreadPool(MEMBERS);
      List<CompletableFuture<Long>> commits = new ArrayList<>();
      for (int i = 0; i < MEMBERS; i++) {
        StagedRows rows = append(base, table, column, i);
        commits.add(CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(rows), pool));
      }
      GroupLake.await(
          "every commit applied",
          () -> lake.catalog.head().snapshotId() == base.snapshotId() + MEMBERS);
      for (CompletableFuture<Long> c : commits) {
        assertTrue(!c.isDone(), "a commit returned before its flush was durable");
      }
      lake.injector.releasePuts();
      Set<Long> landed = new HashSet<>();
      for (CompletableFuture<Long> c : commits) {
        landed.add(c.get(30, TimeUnit.SECONDS));
      }
      pool.shutdown();
      for (long id = base.snapshotId() + 1; id <= base.snapshotId() + MEMBERS; id++) {
        assertTrue(landed.contains(id), "snapshot " + id + " minted: " + landed);
      }
      long puts = lake.walPuts() - putsBefore;
      assertTrue(puts <= 2, MEMBERS + " staged commits cost " + puts + " log PUTs");

      CatalogSnapshot after = lake.catalog.snapshot();
      List<DataFileInfo> files = new ArrayList<>(after.dataFiles(table));
      files.sort(Comparator.comparingLong(f -> f.rowIdStart().orElseThrow()));
      assertEquals(MEMBERS, files.size());
      long next = 0;
      Set<Long> fileIds = new HashSet<>();
      for (DataFileInfo f : files) {
        assertEquals(next, f.rowIdStart().orElseThrow(), "row ids are dense: " + f);
        next += f.recordCount();
        fileIds.add(f.dataFileId());
        assertEquals(
            f.dataFileId() + 1, lake.catalog.snapshotAt(f.beginSnapshot()).info().nextFileId());
      }
      assertEquals(MEMBERS, fileIds.size(), "file ids are distinct");
      long rows = (long) MEMBERS * (MEMBERS + 1) / 2;
      assertEquals(rows, next);
      TableStats stats = after.tableStats(table).orElseThrow();
      assertEquals(rows, stats.recordCount());
      assertEquals(rows, stats.nextRowId());
      long bytes = 0;
      for (int i = 0; i < MEMBERS; i++) {
        bytes += 1000 + i;
      }
      assertEquals(bytes, stats.fileSizeBytes());
      ColumnStats x = after.columnStats(table, column).orElseThrow();
      assertEquals("0", x.minValue().orElseThrow());
      assertEquals(String.valueOf(MEMBERS - 1), x.maxValue().orElseThrow());
    }
  }

  @Test
  void aMemberTheRebaseRefuses_failsAlone_andTheOthersLand() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long t =
          lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      long u =
          lake.catalog.commit(tx -> tx.createTable(0, "u", List.of(ColumnDef.of("y", "int64"))));
      long tx = lake.catalog.snapshot().columns(t).get(0).columnId();
      long uy = lake.catalog.snapshot().columns(u).get(0).columnId();
      lake.catalog.commitStaged(append(lake.catalog.snapshot().info(), t, tx, 4));
      DataFileInfo target = lake.catalog.snapshot().dataFiles(t).get(0);
      SnapshotInfo base = lake.catalog.snapshot().info();
      long n = base.snapshotId() + 1;
      StagedRows delete =
          new StagedRows(
              base.snapshotId(),
              List.of(
                  new StagedRows.Insert(
                      new SnapshotRow(
                          n,
                          Instant.now(),
                          base.schemaVersion(),
                          base.nextCatalogId(),
                          base.nextFileId() + 1)),
                  new StagedRows.Insert(
                      new SnapshotChangesRow(n, "deleted_from_table:" + t, null, null, null)),
                  new StagedRows.Insert(
                      new DeleteFileRow(
                          base.nextFileId(),
                          t,
                          n,
                          null,
                          target.dataFileId(),
                          "data/d.parquet",
                          true,
                          "parquet",
                          1L,
                          500L,
                          50L,
                          null,
                          null))));
      StagedRows toT = append(base, t, tx, 1);
      StagedRows toU = append(base, u, uy, 2);
      CountDownLatch release = lake.holdCommitThread();
      ExecutorService pool = Executors.newFixedThreadPool(3);
      // Held behind one commit, so that they usually join its batch (the outcome below holds
      // whether or not they do; Batch.stage answers a member's refusal without touching the
      // others): whichever of the delete from t and the append to t is staged first lands, and the
      // other follows a change to its table that DuckLake calls a
      // conflict (a delete after an append, or an append after a delete) and is refused alone;
      // the append to u is disjoint from both and lands, rebased past whatever went before it.
      CompletableFuture<Long> deleting =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(delete), pool);
      CompletableFuture<Long> appendingT =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(toT), pool);
      CompletableFuture<Long> appendingU =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(toU), pool);
      Thread.sleep(200);
      release.countDown();
      int refused = 0;
      for (CompletableFuture<Long> c : List.of(deleting, appendingT)) {
        try {
          c.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          assertInstanceOf(CommitConflictException.class, e.getCause());
          assertTrue(e.getCause().getMessage().contains("conflict"), e.getCause().getMessage());
          refused++;
        }
      }
      assertEquals(1, refused, "one of the two commits on t lands, the other is refused");
      long u1 = appendingU.get(30, TimeUnit.SECONDS);
      pool.shutdown();

      CatalogSnapshot after = lake.catalog.snapshot();
      assertEquals(n + 1, after.snapshotId(), "two snapshots landed");
      boolean deleteLanded = !deleting.isCompletedExceptionally();
      assertEquals(deleteLanded ? 1 : 0, after.deleteFiles(t).size());
      assertEquals(deleteLanded ? 1 : 2, after.dataFiles(t).size());
      DataFileInfo moved = after.dataFiles(u).get(0);
      assertEquals(u1, moved.beginSnapshot());
      assertEquals(
          lake.catalog.snapshotAt(u1).info().nextFileId() - 1,
          moved.dataFileId(),
          "its file id is the one its snapshot drew");
      assertEquals(0, moved.rowIdStart().orElseThrow());
    }
  }

  /** A CREATE TABLE of one int64 column as DuckLake writes it, authored against {@code base}. */
  private static StagedRows createTable(SnapshotInfo base, String name) {
    long n = base.snapshotId() + 1;
    long id = base.nextCatalogId();
    return new StagedRows(
        base.snapshotId(),
        List.of(
            new StagedRows.Insert(
                new SnapshotRow(
                    n, Instant.now(), base.schemaVersion() + 1, id + 1, base.nextFileId())),
            new StagedRows.Insert(
                new SnapshotChangesRow(
                    n, "created_table:\"main\".\"" + name + "\"", null, null, null)),
            new StagedRows.Insert(
                new dev.moraine.ducklake.rows.TableRow(
                    id, java.util.UUID.randomUUID(), n, null, 0L, name, name + "/", true)),
            new StagedRows.Insert(
                new dev.moraine.ducklake.rows.ColumnRow(
                    1L, n, null, id, 1L, "x", "int64", null, "NULL", true, null, "literal",
                    "duckdb")),
            new StagedRows.Insert(
                new dev.moraine.ducklake.rows.SchemaVersionsRow(n, base.schemaVersion() + 1, id))));
  }

  @Test
  void aSchemaChangeThatLost_makesArrivalsYieldToItsRedrive() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long t =
          lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      SnapshotInfo stale = lake.catalog.snapshot().info();
      lake.catalog.commit(tx -> tx.updateTableStats(t, 1, 1));
      // Authored against a snapshot the lake moved past: a schema change is never rebased.
      CommitConflictException lost =
          assertThrows(
              CommitConflictException.class,
              () -> lake.catalog.commitStaged(createTable(stale, "u")));
      assertTrue(lost.getMessage().contains("conflict"), lost.getMessage());
      // Its loss made arrivals yield a quarter second: an ordinary commit waits it out, while
      // the re-drive, authored against the head read now, goes first.
      ExecutorService pool = Executors.newSingleThreadExecutor();
      long start = System.nanoTime();
      CompletableFuture<Long> ordinary =
          CompletableFuture.supplyAsync(
              () -> lake.catalog.commit(tx -> tx.updateTableStats(t, 2, 2)), pool);
      long redriven = lake.catalog.commitStaged(createTable(lake.catalog.snapshot().info(), "u"));
      long ordinaryAt = ordinary.get(30, TimeUnit.SECONDS);
      long took = System.nanoTime() - start;
      pool.shutdown();
      assertTrue(
          took >= TimeUnit.MILLISECONDS.toNanos(150),
          "the ordinary commit waited for the yield: " + took / 1_000_000 + " ms");
      assertEquals(redriven + 1, ordinaryAt, "the re-drive landed first");
      assertTrue(
          lake.catalog.snapshot().tables().stream().anyMatch(x -> x.name().equals("u")),
          "the table landed");
    }
  }
}
