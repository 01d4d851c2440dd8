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
 * join one batch, each rebased onto what the members before it left (RFC 0006 §14), so that every
 * one lands with its own consecutive snapshot, file ids and row ids stay dense, and the table's
 * statistics add up; a member whose rebase is refused fails alone, without stranding the batch.
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
      CountDownLatch release = lake.holdCommitThread();
      ExecutorService pool = Executors.newFixedThreadPool(MEMBERS);
      List<CompletableFuture<Long>> commits = new ArrayList<>();
      for (int i = 0; i < MEMBERS; i++) {
        StagedRows rows = append(base, table, column, i);
        commits.add(CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(rows), pool));
      }
      Thread.sleep(200);
      release.countDown();
      Set<Long> landed = new HashSet<>();
      for (CompletableFuture<Long> c : commits) {
        landed.add(c.get(30, TimeUnit.SECONDS));
      }
      pool.shutdown();
      for (long id = base.snapshotId() + 1; id <= base.snapshotId() + MEMBERS; id++) {
        assertTrue(landed.contains(id), "snapshot " + id + " minted: " + landed);
      }
      long puts = lake.walPuts() - putsBefore;
      assertTrue(puts <= 3, MEMBERS + " staged commits and the holder cost " + puts + " PUTs");

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
  void aMemberTheRebaseRefuses_failsAlone_andItsBatchLands() throws Exception {
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
      // In this order into the held batch: the delete rests on the head and lands; the append to
      // t follows a delete from t, a conflict by DuckLake's rules, and is refused alone; the
      // append to u is disjoint from both and lands, rebased past the delete.
      CompletableFuture<Long> deleting =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(delete), pool);
      Thread.sleep(100);
      CompletableFuture<Long> appendingT =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(toT), pool);
      Thread.sleep(100);
      CompletableFuture<Long> appendingU =
          CompletableFuture.supplyAsync(() -> lake.catalog.commitStaged(toU), pool);
      Thread.sleep(100);
      release.countDown();
      assertEquals(n, deleting.get(30, TimeUnit.SECONDS));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> appendingT.get(30, TimeUnit.SECONDS));
      assertInstanceOf(CommitConflictException.class, e.getCause());
      assertTrue(e.getCause().getMessage().contains("conflict"), e.getCause().getMessage());
      assertEquals(n + 1, appendingU.get(30, TimeUnit.SECONDS));
      pool.shutdown();

      CatalogSnapshot after = lake.catalog.snapshot();
      assertEquals(n + 1, after.snapshotId());
      assertEquals(1, after.deleteFiles(t).size());
      assertEquals(1, after.dataFiles(t).size(), "nothing of the refused append landed");
      DataFileInfo moved = after.dataFiles(u).get(0);
      assertEquals(
          base.nextFileId() + 1, moved.dataFileId(), "its file id moved past the delete's");
      assertEquals(n + 1, moved.beginSnapshot());
      assertEquals(0, moved.rowIdStart().orElseThrow());
    }
  }
}
