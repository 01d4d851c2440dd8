package dev.moraine.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The catalog figures of BENCHMARK.md, measured on local-directory lakes built by writing keyspace
 * records directly (there are no verbs yet):
 *
 * <ol>
 *   <li>opening catalogs of 100, 10,000 and 100,000 tables: time from {@code Catalog.open} to the
 *       first head view, and the heap the open catalog retains (and, for contrast, what loading
 *       every table retains);
 *   <li>a time-travel read of one table at an old snapshot in the 100,000-table catalog, each read
 *       on a view not seen before;
 *   <li>the heap retained by 1,000 successive head views, each after a commit that renamed one
 *       table, every view holding the complete table list.
 * </ol>
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.moraine.bench.CatalogFigures [work dir]}. Prints one
 * line per figure. Heap figures are the used heap after repeated full collections, so they are
 * estimates to a few hundred KiB.
 */
public final class CatalogFigures {
  private static final int REPEATS = 7;

  private CatalogFigures() {}

  public static void main(String[] args) throws Exception {
    Path work =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("moraine-catalog-figures");
    try {
      for (int tables : new int[] {100, 10_000, 100_000}) {
        openFigures(work.resolve("open-" + tables), tables);
      }
      timeTravelFigures(work.resolve("travel"));
      sharingFigures(work.resolve("sharing"));
    } finally {
      deleteTree(work);
    }
  }

  // ---- the figures ---------------------------------------------------------------------------

  private static void openFigures(Path dir, int tables) {
    SlateStoreProvider provider = provider(dir);
    try (KvStore store = provider.openWriter()) {
      Catalog.open(store, CatalogOptions.defaults()).close();
      writeTables(store, tables);
      store.flushWal();
    }
    long[] nanos = new long[REPEATS];
    long retained = 0;
    long allTables = 0;
    for (int i = 0; i < REPEATS; i++) {
      try (KvStore store = provider.openWriter()) {
        long before = usedHeap();
        long start = System.nanoTime();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults());
        CatalogSnapshot head = catalog.snapshot();
        nanos[i] = System.nanoTime() - start;
        long afterOpen = usedHeap();
        if (head.snapshotId() != 1) {
          throw new IllegalStateException("head " + head.snapshotId());
        }
        int loaded = head.tables().size();
        long afterAll = usedHeap();
        if (loaded != tables) {
          throw new IllegalStateException(loaded + " tables");
        }
        retained = afterOpen - before;
        allTables = afterAll - afterOpen;
        catalog.close();
      }
    }
    Arrays.sort(nanos);
    System.out.printf(
        "open tables=%d: first head view median %.2f ms (min %.2f, max %.2f, %d runs);"
            + " heap retained by the open catalog %d KiB; by every table loaded %d KiB%n",
        tables,
        nanos[REPEATS / 2] / 1e6,
        nanos[0] / 1e6,
        nanos[REPEATS - 1] / 1e6,
        REPEATS,
        retained / 1024,
        allTables / 1024);
  }

  private static void timeTravelFigures(Path dir) {
    int tables = 100_000;
    long target = 50_000;
    int commits = 100;
    SlateStoreProvider provider = provider(dir);
    try (KvStore store = provider.openWriter()) {
      Catalog.open(store, CatalogOptions.defaults()).close();
      writeTables(store, tables);
      for (int i = 0; i < commits; i++) {
        renameTable(store, target);
      }
      store.flushWal();
    }
    try (KvStore store = provider.openWriter();
        ReadOnlyCatalog catalog =
            Catalog.openReadOnly(store, CatalogOptions.defaults().withSnapshotCacheSize(1))) {
      int reads = 400;
      long[] nanos = new long[reads];
      for (int i = 0; i < reads; i++) {
        // Old snapshots in turn, never the same one twice running: each read builds a new view
        // (the cache holds one) and loads the table's current record and its history.
        long at = 2 + (i % (commits / 2));
        long start = System.nanoTime();
        String name = catalog.snapshotAt(at).table(target).orElseThrow().name();
        nanos[i] = System.nanoTime() - start;
        if (!name.equals("t" + target + "@" + at)) {
          throw new IllegalStateException(name + " at " + at);
        }
      }
      long[] warm = Arrays.copyOfRange(nanos, reads / 4, reads);
      Arrays.sort(warm);
      System.out.printf(
          "time travel tables=%d history=%d versions: one table at an old snapshot, new view each"
              + " time: median %.1f us, p90 %.1f us (%d reads after %d warm-up)%n",
          tables,
          commits,
          warm[warm.length / 2] / 1e3,
          warm[warm.length * 9 / 10] / 1e3,
          warm.length,
          reads / 4);
    }
  }

  private static void sharingFigures(Path dir) {
    int tables = 10_000;
    int commits = 1_000;
    SlateStoreProvider provider = provider(dir);
    try (KvStore store = provider.openWriter()) {
      Catalog catalog = Catalog.open(store, CatalogOptions.defaults());
      writeTables(store, tables);
      long before = usedHeap();
      CatalogSnapshot first = catalog.snapshot();
      first.tables();
      long one = usedHeap() - before;
      List<CatalogSnapshot> views = new ArrayList<>();
      views.add(first);
      long base = usedHeap();
      for (int i = 0; i < commits; i++) {
        renameTable(store, 1 + (i * 7L) % tables);
        CatalogSnapshot view = catalog.snapshot();
        if (view.tables().size() != tables) {
          throw new IllegalStateException("view " + view.snapshotId());
        }
        views.add(view);
      }
      long all = usedHeap() - base;
      System.out.printf(
          "sharing tables=%d: one head view with every table loaded %d KiB; %d further views"
              + " (one table renamed before each) retain %d KiB in all, %d bytes a view"
              + " (%.4f of a full view)%n",
          tables, one / 1024, commits, all / 1024, all / commits, (double) all / commits / one);
      if (views.size() != commits + 1) {
        throw new IllegalStateException();
      }
      catalog.close();
    }
  }

  // ---- building lakes ------------------------------------------------------------------------

  private static SlateStoreProvider provider(Path dir) {
    return new SlateStoreProvider(
        StoreConfig.of(new ObjectStoreSpec.LocalDirectory(dir), "lake")
            .withSettings(StoreSettings.defaults().withFlushTimerOff()));
  }

  /** Snapshot 1: {@code tables} tables of one column each, written raw (no changelog: too big). */
  private static void writeTables(KvStore store, int tables) {
    List<WriteBatch> batches = new ArrayList<>();
    WriteBatch batch = new WriteBatch();
    for (long id = 1; id <= tables; id++) {
      put(batch, CurrentKey.of(new EntityKey.Table(id)), table(id, 1, "t" + id));
      put(
          batch,
          CurrentKey.of(new EntityKey.Column(id, 1)),
          ColumnValue.newBuilder()
              .setColumnId(1)
              .setBeginSnapshot(1)
              .setTableId(id)
              .setColumnOrder(1)
              .setColumnName("a")
              .setColumnType("int64")
              .setNullsAllowed(true)
              .build());
      if (batch.size() >= 4000) {
        batches.add(batch);
        batch = new WriteBatch();
      }
    }
    put(batch, new SnapshotKey(1), snapshot(1, 1, tables + 1));
    put(batch, SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(1).setBatchSeq(1).build());
    batches.add(batch);
    store.writeAll(batches);
  }

  /** One commit renaming table {@code id} to {@code t<id>@<n>}: history, current, changelog. */
  private static void renameTable(KvStore store, long id) {
    HeadValue head =
        ValueCodec.decode(SysKey.HEAD, store.get(KeyCodec.encode(SysKey.HEAD)), HeadValue.class);
    long n = head.getSnapshotId() + 1;
    CurrentKey current = CurrentKey.of(new EntityKey.Table(id));
    byte[] currentKey = KeyCodec.encode(current);
    TableValue old = ValueCodec.decode(current, store.get(currentKey), TableValue.class);
    WriteBatch batch = new WriteBatch();
    put(
        batch,
        new HistoryKey(new EntityKey.Table(id), n),
        old.toBuilder().setEndSnapshot(n).build());
    put(batch, current, table(id, n, "t" + id + "@" + n));
    put(
        batch,
        new ChangelogKey(n),
        ChangelogValue.newBuilder().addKeys(ByteString.copyFrom(currentKey)).build());
    if (n >= 64) {
      batch.delete(KeyCodec.encode(new ChangelogKey(n - 64)));
    }
    SnapshotValue previous =
        ValueCodec.decode(
            new SnapshotKey(n - 1),
            store.get(KeyCodec.encode(new SnapshotKey(n - 1))),
            SnapshotValue.class);
    put(
        batch,
        new SnapshotKey(n),
        snapshot(n, previous.getSchemaVersion() + 1, previous.getNextCatalogId()).toBuilder()
            .setChangesMade("altered_table:" + id)
            .addSchemaChangedTableIds(id)
            .build());
    put(
        batch,
        SysKey.HEAD,
        HeadValue.newBuilder().setSnapshotId(n).setBatchSeq(head.getBatchSeq() + 1).build());
    store.write(batch);
  }

  private static TableValue table(long id, long begin, String name) {
    return TableValue.newBuilder()
        .setTableId(id)
        .setTableUuid("00000000-0000-4000-8000-" + String.format("%012d", id))
        .setBeginSnapshot(begin)
        .setTableName(name)
        .setPath(name + "/")
        .setPathIsRelative(true)
        .setNextColumnId(2)
        .build();
  }

  private static SnapshotValue snapshot(long id, long schemaVersion, long nextCatalogId) {
    return SnapshotValue.newBuilder()
        .setSnapshotId(id)
        .setSnapshotTimeMicros(System.currentTimeMillis() * 1000)
        .setSchemaVersion(schemaVersion)
        .setNextCatalogId(nextCatalogId)
        .build();
  }

  private static void put(WriteBatch batch, Key key, Message value) {
    batch.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  private static long usedHeap() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
