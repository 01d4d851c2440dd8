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
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Mutation-sized preparation (RFC 0004 §9): a commit that updates one table's statistics by id, on
 * a freshly opened catalog, reads and writes the same entries whether the catalog holds 10 or 400
 * unrelated tables. Counted in entries the store returned to the catalog's reads, and in the
 * operations of the commit's batch, so the check is exact, not timed.
 */
class MutationSizedCommitTest {
  /** Entries read and operations written by one statistics commit in a lake of that many tables. */
  private record Cost(long entriesRead, int opsWritten) {}

  private static Cost statsCommitIn(int unrelatedTables) {
    String name = "mutation-sized-" + UUID.randomUUID();
    KvStore raw =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                    .withSettings(StoreSettings.defaults().withFlushTimerOff()))
            .openWriter();
    RecordingKvStore store = new RecordingKvStore(raw);
    try {
      long target;
      try (Catalog c = Catalog.open(store, CatalogOptions.defaults())) {
        List<ColumnDef> one = List.of(ColumnDef.of("v", "int64"));
        c.commit(
            tx -> {
              tx.createTable(0, "target", one);
              for (int i = 0; i < unrelatedTables; i++) {
                tx.createTable(0, "unrelated_" + i, one);
              }
            });
        target = c.snapshot().tableByName(0, "target").orElseThrow().tableId();
        assertEquals(unrelatedTables + 1, c.snapshot().tables().size());
      }
      // A new catalog on the same store: nothing loaded, as after a process start.
      try (Catalog c = Catalog.open(store, CatalogOptions.defaults())) {
        store.clear();
        long before = store.entriesRead();
        c.commit(
            tx -> {
              tx.updateTableStats(target, 7, 4096);
              tx.updateColumnStats(
                  target,
                  1,
                  Optional.of(false),
                  Optional.empty(),
                  Optional.of("1"),
                  Optional.of("9"),
                  Optional.empty());
            });
        long read = store.entriesRead() - before;
        List<RecordingKvStore.Landed> writes = store.landed();
        assertEquals(1, writes.size(), "one batch");
        CommitDiffOracle.check(writes.get(0));
        return new Cost(read, writes.get(0).ops().size());
      }
    } finally {
      store.close();
      ObjectStoreSpec.dropInMemory(name);
    }
  }

  @Test
  void aStatisticsCommitByTableId_readsAndWritesTheSameWhateverTheCatalogSize() {
    Cost small = statsCommitIn(10);
    Cost large = statsCommitIn(400);
    assertTrue(small.entriesRead() > 0, "the commit read its premise");
    assertTrue(
        small.entriesRead() < 20, "a handful of entries, not the catalog: " + small.entriesRead());
    assertEquals(small, large, "10 tables against 400");
  }
}
