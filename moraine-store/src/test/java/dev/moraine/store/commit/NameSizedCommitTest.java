package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Name resolution in proportion to the change (RFC 0004 §9): once a catalog's tables are loaded,
 * creating a table checks its name against an index, not the table list. Counted in entries the
 * store returned to the catalog's reads and in heap bytes the closure allocated, never timed.
 */
class NameSizedCommitTest {
  private static final List<ColumnDef> ONE = List.of(ColumnDef.of("v", "int64"));

  /** A lake with {@code tables} one-column tables in {@code main}, open in a fresh catalog. */
  private static final class Lake implements AutoCloseable {
    final String name = "name-sized-" + UUID.randomUUID();
    final RecordingKvStore store;
    final Catalog catalog;

    Lake(int tables) {
      KvStore raw =
          new SlateStoreProvider(
                  StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                      .withSettings(StoreSettings.defaults().withFlushTimerOff()))
              .openWriter();
      store = new RecordingKvStore(raw);
      try (Catalog builder = Catalog.open(store, CatalogOptions.defaults())) {
        builder.commit(
            tx -> {
              for (int i = 0; i < tables; i++) {
                tx.createTable(0, "existing_" + i, ONE);
              }
            });
      }
      // A new catalog on the same store, as after a process start; the application lists its
      // tables once, which loads them into the head view (and later head views carry them).
      catalog = Catalog.open(store, CatalogOptions.defaults());
      assertEquals(tables, catalog.snapshot().tables().size());
      store.clear();
    }

    @Override
    public void close() {
      catalog.close();
      store.close();
      ObjectStoreSpec.dropInMemory(name);
    }
  }

  /** Entries read by two commits that each create one table, and the operations they wrote. */
  private record Cost(long entriesRead, List<Integer> opsWritten) {}

  private static Cost twoCreatesIn(int tables) {
    try (Lake lake = new Lake(tables)) {
      long before = lake.store.entriesRead();
      lake.catalog.commit(tx -> tx.createTable(0, "new_a", ONE));
      lake.catalog.commit(tx -> tx.createTable(0, "new_b", ONE));
      long read = lake.store.entriesRead() - before;
      List<RecordingKvStore.Landed> writes = lake.store.landed();
      assertEquals(2, writes.size(), "one batch per commit");
      writes.forEach(CommitDiffOracle::check);
      assertEquals(tables + 2, lake.catalog.snapshot().tables().size());
      return new Cost(read, writes.stream().map(w -> w.ops().size()).toList());
    }
  }

  @Test
  void creatingATableOnceTheTablesAreLoaded_readsTheSameWhateverTheCatalogSize() {
    Cost small = twoCreatesIn(10);
    Cost large = twoCreatesIn(2_000);
    assertTrue(small.entriesRead() > 0, "the commits read their premise");
    assertTrue(
        small.entriesRead() < 30, "a handful of entries, not the catalog: " + small.entriesRead());
    assertEquals(small, large, "10 tables against 2,000");
  }

  /** Heap bytes the committing thread allocated inside a closure that creates {@code k} tables. */
  private static long closureBytes(Lake lake, int k, String prefix) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] bytes = new long[1];
    lake.catalog.commit(
        tx -> {
          long start = threads.getCurrentThreadAllocatedBytes();
          for (int i = 0; i < k; i++) {
            tx.createTable(0, prefix + i, ONE);
            // A name lookup and a uniqueness refusal per table, both through the index.
            assertTrue(tx.tableByName(0, (prefix + i).toUpperCase()).isPresent());
          }
          bytes[0] = threads.getCurrentThreadAllocatedBytes() - start;
        });
    return bytes[0];
  }

  @Test
  void aClosureCreatingManyTables_doesNotWalkTheCatalogPerVerb() {
    int k = 200;
    long small;
    long large;
    // In each lake a first closure builds the name index (once per catalog: later head views
    // carry it) and compiles the path; the second is counted.
    try (Lake lake = new Lake(10)) {
      closureBytes(lake, k, "warm_");
      small = closureBytes(lake, k, "t_");
    }
    try (Lake lake = new Lake(5_000)) {
      closureBytes(lake, k, "warm_");
      large = closureBytes(lake, k, "t_");
      assertEquals(5_000 + 2 * k, lake.catalog.snapshot().tables().size());
    }
    // Walking the 5,000 loaded tables once per verb, as a list scan does, allocates at least an
    // entry per table per verb: 200 x 5,000 x 32 bytes = 32 MB more than in the small catalog. A
    // lookup in the index allocates nothing per catalog table; what remains is the closure's own
    // work, which does not depend on the catalog.
    assertTrue(
        large < small + 2_000_000,
        "closure allocations: " + small + " bytes with 10 tables, " + large + " with 5,000");
  }
}
