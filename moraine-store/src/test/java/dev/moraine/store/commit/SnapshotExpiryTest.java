package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvUnavailableException;
import dev.moraine.store.forwarding.ForwardingKvStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@code expireSnapshots} removes what stock DuckLake 1.5.5's {@code ducklake_expire_snapshots}
 * removes (probed; RFC 0005 §3.1), as head-preserving batches on real SlateDB: the chosen
 * snapshots, every record of a table no retained snapshot sees, dead file versions (scheduled for
 * deletion), dead schema, view, macro and tag versions; and nothing a retained snapshot reads.
 */
class SnapshotExpiryTest {
  private static final long T = 1;

  private static NewDataFile file(String path, long rows) {
    return NewDataFile.parquet(path, rows, 1000, 100);
  }

  /**
   * The probe's history: 1 create t, 2 and 3 a file each, 4 a delete file on file 0, 5 add column,
   * 6 create u, 7 a file in u, 8 drop u, 9 create view v, 10 replace v, 11 rename t, 12 create
   * schema s2, 13 drop it, 14 drop column b, 15 comment t, 16 comment t again, 17 create macro, 18
   * drop it, 19 expire file 1 of t, 20 one more file in t.
   */
  private static void history(Catalog c) {
    c.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "INT32"), ColumnDef.of("b", "VARCHAR"))));
    c.commit(tx -> tx.registerDataFile(T, file("f0.parquet", 10)));
    c.commit(tx -> tx.registerDataFile(T, file("f1.parquet", 10)));
    c.commit(tx -> tx.registerDeleteFile(T, NewDeleteFile.parquet(0, "d0.parquet", 3, 500, 100)));
    c.commit(tx -> tx.addColumn(T, ColumnDef.of("c", "INT32")));
    long u =
        c.commitReturning(tx -> tx.createTable(0, "u", List.of(ColumnDef.of("x", "INT32"))))
            .value();
    c.commit(tx -> tx.registerDataFile(u, file("u0.parquet", 2)));
    c.commit(tx -> tx.dropTable(u));
    long v = c.commitReturning(tx -> tx.createView(0, "v", "duckdb", "SELECT 1")).value();
    c.commit(tx -> tx.alterView(v, "duckdb", "SELECT 2"));
    c.commit(tx -> tx.renameTable(T, "t2"));
    long s2 = c.commitReturning(tx -> tx.createSchema("s2")).value();
    c.commit(tx -> tx.dropSchema(s2));
    c.commit(tx -> tx.dropColumn(T, 2));
    c.commit(tx -> tx.setComment(new TagTarget.Table(T), "one"));
    c.commit(tx -> tx.setComment(new TagTarget.Table(T), "two"));
    long m =
        c.commitReturning(
                tx ->
                    tx.createMacro(
                        0,
                        "m",
                        NewMacro.of(
                            NewMacro.Implementation.scalar(
                                "x + 1", NewMacro.Parameter.of("x", "unknown")))))
            .value();
    c.commit(tx -> tx.dropMacro(m));
    c.commit(tx -> tx.expireDataFile(T, 1));
    c.commit(tx -> tx.registerDataFile(T, file("f2.parquet", 5)));
  }

  /** Snapshot {@code id} as the dump renders it, without the lake's present deletion schedule. */
  private static String render(ReadOnlyCatalog c, long id) {
    return CatalogDump.atToString(c, id)
        .replaceFirst("\"scheduled_deletions\":\\[.*?\\],\"snapshots\"", "");
  }

  /**
   * Snapshot {@code id} as a catalog opened afresh renders it (a catalog that wrote the history
   * keeps its views, which show an unversioned record such as a table's stats as it was then).
   */
  private static String fresh(CommitLake lake, long id) {
    try (ReadOnlyCatalog c = Catalog.openReadOnly(lake.store, CatalogOptions.defaults())) {
      return render(c, id);
    }
  }

  private static String render(Catalog c) {
    return render(c, c.head().snapshotId());
  }

  @Test
  void expiringTheDroppedTablesSnapshots_removesTheTable_andSchedulesItsFile() {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      history(c);
      var head = c.head();
      String headBefore = render(c);
      String nineBefore = render(c, 9);
      String nineFresh = fresh(lake, 9);
      ExpiryResult r = c.expireSnapshots(SnapshotExpiry.ids(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L)));
      assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L), r.expiredSnapshotIds());
      assertEquals(
          List.of(3L), r.scheduledFileIds(), "u's file (0, 1: t's files, 2: the delete file)");
      assertFalse(r.dryRun());
      assertEquals(head.snapshotId(), c.head().snapshotId(), "no snapshot minted");
      assertTrue(c.head().batchSeq() > head.batchSeq(), "each batch advances the batch sequence");
      assertEquals(headBefore, render(c));
      assertEquals(nineBefore, render(c, 9), "a retained snapshot reads as before");
      var e = assertThrows(NotFoundException.class, () -> c.snapshotAt(5));
      assertEquals(ErrorCode.SNAPSHOT_EXPIRED, e.code());
      var fresh = lake.rival();
      assertEquals(
          ErrorCode.SNAPSHOT_EXPIRED,
          assertThrows(NotFoundException.class, () -> fresh.snapshotAt(8)).code());
      assertEquals(nineFresh, fresh(lake, 9));
      var history = fresh.snapshot().history();
      assertEquals(
          List.of(T),
          history.tables().stream().map(t -> t.version().tableId()).distinct().toList());
      ScheduledDeletion gone = fresh.snapshot().scheduledDeletions().get(0);
      assertEquals(3, gone.dataFileId());
      assertEquals("main/u/u0.parquet", gone.path());
      // Nothing keyed by table u is left in the store.
      for (String key : lake.contents().keySet()) {
        assertFalse(keyedByTable(key, 2), "a key of the dropped table is left: " + key);
      }
    }
  }

  /**
   * Whether a hex key of the current, history or schema-version subspace names table {@code id}.
   */
  private static boolean keyedByTable(String key, long id) {
    String table = String.format("%016x", id);
    return (key.startsWith("0402")
            && key.length() > 6
            && !key.startsWith("040202")
            && !key.startsWith("04020c")
            && !key.startsWith("04020d")
            && !key.startsWith("04020f")
            && !key.startsWith("040204")
            && key.startsWith(table, 6))
        || (key.startsWith("05")
            && !key.startsWith("0502")
            && !key.startsWith("0504")
            && !key.startsWith("050f")
            && key.startsWith(table, 4))
        || (key.startsWith("08") && key.startsWith(table, 2));
  }

  @Test
  void expiringAllButTheHead_removesEveryDeadVersion_andKeepsTheLiveTablesHistory() {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      history(c);
      long head = c.head().snapshotId();
      String headBefore = render(c);
      ExpiryResult r = c.expireSnapshots(SnapshotExpiry.olderThan(Instant.now().plusSeconds(60)));
      assertEquals(LongStream.range(0, head).boxed().toList(), r.expiredSnapshotIds());
      assertEquals(List.of(1L, 3L), r.scheduledFileIds(), "the expired file 1 of t and u's file 3");
      assertEquals(headBefore, render(c));
      var fresh = lake.rival();
      var h = fresh.snapshot().history();
      assertEquals(
          List.of(head), fresh.snapshot().snapshotLog().stream().map(s -> s.snapshotId()).toList());
      // Stock keeps a live table's old versions (its old name), its dropped column and its tags'
      // records, but drops the dead view, schema, macro and tag versions.
      assertEquals(2, h.tables().size(), "t and t2");
      assertTrue(h.columns().stream().anyMatch(col -> col.version().name().equals("b")));
      assertEquals(
          List.of(false), h.views().stream().map(x -> x.endSnapshot().isPresent()).toList());
      assertEquals(List.of("main"), h.schemas().stream().map(x -> x.version().name()).toList());
      assertEquals(List.of(), h.macros());
      assertEquals(List.of("two"), h.tags().get(T).stream().map(x -> x.value()).toList());
      assertEquals(
          List.of(0L, 4L), h.dataFiles().stream().map(x -> x.version().dataFileId()).toList());
      assertEquals(1, h.deleteFiles().size(), "the delete file on the live file 0 stays");
      assertEquals(headBefore, render(fresh));
    }
  }

  @Test
  void retainLast_dryRun_andNamingTheHead() {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      history(c);
      long head = c.head().snapshotId();
      SortedMap<String, String> before = lake.contents();
      ExpiryResult dry = c.expireSnapshots(SnapshotExpiry.retainLast(3).dryRun());
      assertTrue(dry.dryRun());
      assertEquals(LongStream.range(0, head - 2).boxed().toList(), dry.expiredSnapshotIds());
      assertEquals(before, lake.contents(), "a dry run writes nothing");
      var refused =
          assertThrows(
              InvalidArgumentException.class,
              () -> c.expireSnapshots(SnapshotExpiry.ids(List.of(3L, head))));
      assertTrue(refused.getMessage().contains("head"), refused.getMessage());
      assertEquals(before, lake.contents(), "a refused expiry writes nothing");
      assertThrows(InvalidArgumentException.class, () -> SnapshotExpiry.retainLast(0));
      assertThrows(InvalidArgumentException.class, () -> c.expireSnapshots(null));
      ExpiryResult r = c.expireSnapshots(SnapshotExpiry.retainLast(3));
      assertEquals(dry.expiredSnapshotIds(), r.expiredSnapshotIds());
      assertEquals(3, lake.rival().snapshot().snapshotLog().size());
      ExpiryResult again = c.expireSnapshots(SnapshotExpiry.retainLast(3));
      assertEquals(List.of(), again.expiredSnapshotIds());
      assertEquals(0, again.batches(), "nothing left to do");
    }
  }

  @Test
  void aViewTakenBeforeTheExpiry_answersSnapshotExpiredOnItsNextLoad() {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      history(c);
      CatalogSnapshot held = c.snapshotAt(7);
      c.expireSnapshots(SnapshotExpiry.ids(List.of(7L)));
      var e = assertThrows(NotFoundException.class, () -> held.dataFiles(2));
      assertEquals(ErrorCode.SNAPSHOT_EXPIRED, e.code());
    }
  }

  /**
   * Small batches give the same store as one batch; an expiry stopped by a store failure after a
   * few batches leaves a catalog that reads correctly, and running it again finishes it with the
   * same result.
   */
  /**
   * A reader loads snapshot 5 and is held after reading its record, while an expiry removes 5 and
   * returns; the reader then builds its view and the catalog would cache it. Asked again, the
   * catalog must answer SNAPSHOT_EXPIRED, not hand out the cached view of a snapshot that is gone.
   */
  @Test
  void aSnapshotLoadedWhileItExpires_isNotKeptInTheCache() throws Exception {
    try (CommitLake lake = new CommitLake()) {
      history(lake.catalog);
      java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.atomic.AtomicReference<Thread> held =
          new java.util.concurrent.atomic.AtomicReference<>();
      byte[] five =
          dev.moraine.core.keyspace.key.KeyCodec.encode(
              new dev.moraine.core.keyspace.key.SnapshotKey(5));
      KvStore holding =
          new ForwardingKvStore(lake.store) {
            @Override
            protected byte[] readOne(
                String call,
                dev.moraine.core.kv.KvReadView view,
                byte[] key,
                dev.moraine.core.kv.ReadDurability durability) {
              byte[] value = super.readOne(call, view, key, durability);
              if (Thread.currentThread() == held.get() && java.util.Arrays.equals(key, five)) {
                read.countDown();
                try {
                  resume.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return value;
            }

            @Override
            public void close() {}
          };
      try (Catalog c = Catalog.open(holding, CatalogOptions.defaults())) {
        java.util.concurrent.CompletableFuture<CatalogSnapshot> loading =
            new java.util.concurrent.CompletableFuture<>();
        Thread reader =
            new Thread(
                () -> {
                  try {
                    loading.complete(c.snapshotAt(5));
                  } catch (RuntimeException e) {
                    loading.completeExceptionally(e);
                  }
                });
        held.set(reader);
        reader.start();
        read.await();
        assertEquals(
            List.of(5L), c.expireSnapshots(SnapshotExpiry.ids(List.of(5L))).expiredSnapshotIds());
        resume.countDown();
        reader.join();
        assertEquals(5, loading.get().info().snapshotId(), "loaded before the expiry landed");
        var e = assertThrows(NotFoundException.class, () -> c.snapshotAt(5));
        assertEquals(ErrorCode.SNAPSHOT_EXPIRED, e.code());
      }
    }
  }

  @Test
  void boundedBatches_andAnInterruptedExpiry_endWhereOneBatchEnds() {
    SnapshotExpiry expiry = SnapshotExpiry.retainLast(2);
    java.util.SortedSet<String> reference;
    try (CommitLake lake = new CommitLake()) {
      manySnapshots(lake.catalog);
      ExpiryResult one = lake.catalog.expireSnapshots(expiry.withBatchKeys(100_000));
      assertEquals(2, one.batches());
      reference = comparable(lake.contents());
    }
    try (CommitLake lake = new CommitLake()) {
      manySnapshots(lake.catalog);
      ExpiryResult small = lake.catalog.expireSnapshots(expiry.withBatchKeys(16));
      assertTrue(small.batches() > 10, "batches " + small.batches());
      assertEquals(reference, comparable(lake.contents()));
    }
    for (int stopAfter : new int[] {1, 3, 7, 12}) {
      try (CommitLake lake = new CommitLake()) {
        manySnapshots(lake.catalog);
        long retained = lake.catalog.head().snapshotId() - 1;
        String head = fresh(lake, retained + 1);
        String retainedBefore = fresh(lake, retained);
        StopsCommitting stopping = new StopsCommitting(lake.store, stopAfter);
        try (Catalog c = Catalog.open(stopping, CatalogOptions.defaults())) {
          assertThrows(
              StoreUnavailableException.class, () -> c.expireSnapshots(expiry.withBatchKeys(16)));
        }
        try (Catalog c = Catalog.open(lake.store, CatalogOptions.defaults())) {
          assertEquals(head, render(c), "stopped after " + stopAfter);
          assertEquals(retainedBefore, render(c, retained));
          c.expireSnapshots(expiry.withBatchKeys(16));
        }
        assertEquals(reference, comparable(lake.contents()), "stopped after " + stopAfter);
      }
    }
  }

  /** 73 snapshots: tables created, filled and dropped; files given a delete file, then expired. */
  private static void manySnapshots(Catalog c) {
    long keep =
        c.commitReturning(tx -> tx.createTable(0, "keep", List.of(ColumnDef.of("a", "INT32"))))
            .value();
    for (int i = 0; i < 8; i++) {
      int n = i;
      long t =
          c.commitReturning(
                  tx ->
                      tx.createTable(
                          0,
                          "t" + n,
                          List.of(ColumnDef.of("a", "INT32"), ColumnDef.of("b", "INT64"))))
              .value();
      long f =
          c.commitReturning(tx -> tx.registerDataFile(t, file("a" + n + ".parquet", 3))).value();
      c.commit(tx -> tx.registerDataFile(t, file("b" + n + ".parquet", 3)));
      c.commit(
          tx ->
              tx.registerDeleteFile(t, NewDeleteFile.parquet(f, "d" + n + ".parquet", 1, 50, 10)));
      c.commit(tx -> tx.dropTable(t));
      long k =
          c.commitReturning(tx -> tx.registerDataFile(keep, file("k" + n + ".parquet", 3))).value();
      c.commit(
          tx ->
              tx.registerDeleteFile(
                  keep, NewDeleteFile.parquet(k, "kd" + n + ".parquet", 1, 50, 10)));
      c.commit(tx -> tx.expireDataFile(keep, k));
    }
  }

  /**
   * The keys the store holds, but the head's (two lakes built alike differ in their times and
   * uuids, and an expiry in more batches advances the batch sequence further).
   */
  private static java.util.SortedSet<String> comparable(SortedMap<String, String> contents) {
    java.util.SortedSet<String> keys = new java.util.TreeSet<>(contents.keySet());
    keys.remove("0203");
    return keys;
  }

  /** A store whose transactions fail to begin once {@code commits} have been begun. */
  private static final class StopsCommitting extends ForwardingKvStore {
    private final AtomicInteger left;

    StopsCommitting(KvStore delegate, int commits) {
      super(delegate);
      this.left = new AtomicInteger(commits);
    }

    @Override
    public KvTransaction begin() {
      if (left.getAndDecrement() <= 0) {
        throw new KvUnavailableException("the store stopped taking writes");
      }
      return super.begin();
    }

    @Override
    public void close() {}
  }

  /** Commits of another thread go on landing while an expiry runs in small batches. */
  @Test
  void commitsLandWhileAnExpiryRuns_andNothingLiveIsScheduled() throws Exception {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      manySnapshots(c);
      long keep = 1;
      AtomicBoolean done = new AtomicBoolean();
      List<Long> registered = new ArrayList<>();
      Thread writer =
          new Thread(
              () -> {
                int i = 0;
                while (!done.get() || i < 20) {
                  int n = i++;
                  registered.add(
                      c.commitReturning(
                              tx -> tx.registerDataFile(keep, file("w" + n + ".parquet", 1)))
                          .value());
                }
              });
      writer.start();
      c.expireSnapshots(SnapshotExpiry.retainLast(1).withBatchKeys(16));
      done.set(true);
      writer.join();
      var head = lake.rival().snapshot();
      List<Long> live = head.dataFiles(keep).stream().map(f -> f.dataFileId()).toList();
      assertEquals(registered.size(), live.size());
      for (ScheduledDeletion s : head.scheduledDeletions()) {
        assertFalse(live.contains(s.dataFileId()), "a live file was scheduled: " + s);
      }
      assertEquals(render(c), render(lake.rival()));
    }
  }
}
