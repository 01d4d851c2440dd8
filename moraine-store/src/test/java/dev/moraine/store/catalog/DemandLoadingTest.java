package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.SlateStoreProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Opening reads the head and counters only; entities load when asked; views share what holds. */
class DemandLoadingTest {

  /** Snapshot 1 creates {@code tables} tables of one column each, written raw with writeAll. */
  static void writeTables(KvStore store, int tables) {
    List<WriteBatch> batches = new ArrayList<>();
    WriteBatch batch = new WriteBatch();
    for (long id = 1; id <= tables; id++) {
      put(batch, CurrentKey.of(new EntityKey.Table(id)), TimeTravelLake.table(id, 1, "t" + id, 2));
      put(
          batch,
          CurrentKey.of(new EntityKey.Column(id, 1)),
          TimeTravelLake.column(id, 1, 1, 1, "a", "int64", null));
      if (batch.size() >= 2000) {
        batches.add(batch);
        batch = new WriteBatch();
      }
    }
    // More than 4096 current keys: no changelog for snapshot 1 (RFC 0002 §12.1).
    put(
        batch,
        new SnapshotKey(1),
        SnapshotValue.newBuilder()
            .setSnapshotId(1)
            .setSnapshotTimeMicros(System.currentTimeMillis() * 1000)
            .setSchemaVersion(1)
            .setNextCatalogId(tables + 1)
            .build());
    put(batch, SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(1).setBatchSeq(1).build());
    batches.add(batch);
    store.writeAll(batches);
  }

  private static void put(WriteBatch batch, Key key, com.google.protobuf.Message value) {
    batch.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  /** Records read to open a catalog of {@code tables} tables and read one table and its columns. */
  private static long[] readsToOpenAndReadOne(int tables) {
    SlateStoreProvider provider = Stores.inMemory();
    try (KvStore raw = provider.openWriter()) {
      Catalog.open(raw, CatalogOptions.defaults()).close();
      writeTables(raw, tables);
      CountingKvStore store = new CountingKvStore(raw);
      try (Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
        CatalogSnapshot head = catalog.snapshot();
        long open = store.recordsRead();
        TableInfo t = head.table(tables / 2).orElseThrow();
        assertEquals("t" + tables / 2, t.name());
        assertEquals(1, head.columns(tables / 2).size());
        long one = store.recordsRead() - open;
        store.reset();
        assertEquals(tables, head.tables().size(), "all tables means all of them");
        assertTrue(store.scanned.get() >= tables);
        return new long[] {open, one, store.writes.get()};
      }
    } finally {
      Stores.drop(provider);
    }
  }

  @Test
  void openingReadsTheSameWhateverTheCatalogSize() {
    long[] small = readsToOpenAndReadOne(100);
    long[] large = readsToOpenAndReadOne(10_000);
    assertEquals(small[0], large[0], "records read by open and the head view");
    assertEquals(small[1], large[1], "records read to load one table and its columns");
    assertTrue(large[0] <= 10, "open read " + large[0] + " records");
    assertEquals(0, large[2], "reads write nothing");
  }

  /** The next head view keeps what the commits in between did not change. */
  @Test
  void theNextHeadViewSharesWhatDidNotChange() {
    SlateStoreProvider provider = Stores.inMemory();
    try (KvStore raw = provider.openWriter()) {
      CountingKvStore store = new CountingKvStore(raw);
      Catalog catalog = Catalog.open(store, CatalogOptions.defaults());
      LakeFixture fixture = new LakeFixture(raw);
      fixture.commit(
          "created_table:\"main\".\"a\",created_table:\"main\".\"b\"",
          c -> {
            c.schemaChange(1, 2);
            c.put(new EntityKey.Table(c.catalogId()), TimeTravelLake.table(1, c.n, "a", 1));
            c.put(new EntityKey.Table(c.catalogId()), TimeTravelLake.table(2, c.n, "b", 1));
          });
      CatalogSnapshot first = catalog.snapshot();
      first.table(1);
      first.table(2);
      assertEquals(2, first.tables().size());
      fixture.commit(
          "altered_table:2",
          c -> {
            c.schemaChange(2);
            c.put(new EntityKey.Table(2), TimeTravelLake.table(2, c.n, "b2", 1));
          });
      store.reset();
      CatalogSnapshot second = catalog.snapshot();
      assertEquals(2, second.snapshotId());
      // The head, the migration marker, the snapshot record, one changelog, and table 2 again.
      assertEquals(5, store.recordsRead(), "moving the head costs a read per changed entity");
      store.reset();
      assertEquals("a", second.table(1).orElseThrow().name());
      assertEquals("b2", second.table(2).orElseThrow().name());
      assertEquals(List.of("a", "b2"), second.tables().stream().map(TableInfo::name).toList());
      assertEquals(0, store.recordsRead(), "everything came from the carried state");
      // A table created later joins the carried table range.
      fixture.commit(
          "created_table:\"main\".\"c\"",
          c -> {
            c.schemaChange(3);
            c.put(new EntityKey.Table(c.catalogId()), TimeTravelLake.table(3, c.n, "c", 1));
          });
      CatalogSnapshot third = catalog.snapshot();
      assertEquals(List.of("a", "b2", "c"), third.tables().stream().map(TableInfo::name).toList());
      store.reset();
      assertEquals(Optional.empty(), third.table(4));
      assertEquals(0, store.recordsRead(), "the complete table range answers an absent table");
      assertEquals(List.of(), third.columns(3));
      assertEquals(2, store.scans.get(), "what no view loaded is read when asked for");
      assertEquals("b", first.table(2).orElseThrow().name());
      catalog.close();
    } finally {
      Stores.drop(provider);
    }
  }

  /**
   * Loads at an old snapshot while commits keep moving versions from current to history: every load
   * sees the version of its snapshot, never a gap.
   */
  @Test
  void loadsRacingCommitsSeeTheirSnapshot() throws Exception {
    loadsRacingCommits(false);
  }

  /** The same through a latest-following reader, whose loads are bracketed by head reads. */
  @Test
  void readerLoadsRacingCommitsSeeTheirSnapshot() throws Exception {
    loadsRacingCommits(true);
  }

  private static void loadsRacingCommits(boolean throughReader) throws Exception {
    SlateStoreProvider provider = Stores.inMemory();
    try (KvStore store = provider.openWriter()) {
      Catalog.open(store, CatalogOptions.defaults()).close();
      LakeFixture fixture = new LakeFixture(store);
      fixture.commit(
          "created_table:\"main\".\"r0\"",
          c -> {
            c.schemaChange(1);
            c.put(new EntityKey.Table(c.catalogId()), TimeTravelLake.table(1, c.n, "r0", 1));
          });
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread writer =
          new Thread(
              () -> {
                try {
                  for (int i = 1; !stop.get() && i < 400; i++) {
                    String name = "r" + i;
                    fixture.commit(
                        "altered_table:1",
                        c -> {
                          c.schemaChange(1);
                          c.put(new EntityKey.Table(1), TimeTravelLake.table(1, c.n, name, 1));
                        });
                    if (throughReader) {
                      store.flushWal(); // a reader sees durable writes only
                    }
                  }
                } catch (Throwable t) {
                  failed.set(t);
                }
              });
      store.flushWal();
      writer.start();
      try (KvReader reader = provider.openReader(ReaderMode.followLatest())) {
        for (int i = 0; i < 200; i++) {
          try (ReadOnlyCatalog ro =
              throughReader
                  ? Catalog.openReadOnly(reader, CatalogOptions.defaults())
                  : Catalog.openReadOnly(store, CatalogOptions.defaults())) {
            CatalogSnapshot s = ro.snapshotAt(1);
            assertEquals(List.of("r0"), s.tables().stream().map(TableInfo::name).toList());
            assertEquals("r0", ro.snapshotAt(1).table(1).orElseThrow().name());
            CatalogSnapshot head = ro.snapshot();
            assertEquals(
                "r" + (head.snapshotId() - 1), head.table(1).orElseThrow().name(), "head view");
          }
        }
      } finally {
        stop.set(true);
        writer.join();
      }
      assertEquals(null, failed.get());
    } finally {
      Stores.drop(provider);
    }
  }
}
