package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A commit whose write-ahead-log PUT fails past the store's retries ends in {@link
 * CommitOutcomeUnknownException}, is not retried, and a reopen shows the catalog whole: the commit
 * entirely there or entirely absent.
 */
class CommitOutcomeTest {

  private static StoreSettings settings() {
    return StoreSettings.defaults()
        .withFlushTimerOff()
        .withManifestPollInterval(Duration.ofMillis(100))
        .withObjectStoreMaxRetries(1)
        .withOperationTimeout(Duration.ofSeconds(20));
  }

  @ParameterizedTest(name = "the failing PUT lands first: {0}")
  @ValueSource(booleans = {false, true})
  void aFailedWalPut_isAnUnknownOutcome_andTheReopenedCatalogIsWhole(boolean lostResponse) {
    String name = "outcome-" + UUID.randomUUID();
    ObjectStoreSpec inner = ObjectStoreSpec.inMemory(name);
    try (FaultInjector injector = new FaultInjector()) {
      KvStore store =
          new SlateStoreProvider(
                  StoreConfig.of(ObjectStoreSpec.faulty(inner, injector), "lake")
                      .withSettings(settings()))
              .openWriter();
      Catalog catalog = Catalog.open(store, CatalogOptions.defaults());
      catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
      int[] runs = {0};
      injector.failPuts(0, 1_000, FaultInjector.WAL, lostResponse);
      CommitOutcomeUnknownException e =
          assertThrows(
              CommitOutcomeUnknownException.class,
              () ->
                  catalog.commit(
                      tx -> {
                        runs[0]++;
                        tx.registerDataFile(1, NewDataFile.parquet("f", 3, 10, 1));
                      }));
      assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, e.code());
      assertEquals(1, runs[0], "an unknown outcome is never retried");
      catalog.close();
      try {
        store.close();
      } catch (RuntimeException expected) {
        // The handle's log is broken; closing reports what it could not flush.
      }
      injector.failPuts(0, 0, null, false);
      try (KvStore reopened =
              new SlateStoreProvider(StoreConfig.of(inner, "lake").withSettings(settings()))
                  .openWriter();
          Catalog again = Catalog.open(reopened, CatalogOptions.defaults())) {
        CatalogSnapshot head = again.snapshot();
        boolean landed = head.snapshotId() == 2;
        assertTrue(head.snapshotId() == 1 || landed, "head " + head.snapshotId());
        assertEquals(landed ? 1 : 0, head.dataFiles(1).size());
        assertEquals(landed ? 3 : 0, head.tableStats(1).orElseThrow().nextRowId());
        // Whichever it was, the catalog takes the next commit.
        again.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("g", 2, 10, 1)));
        assertEquals(head.snapshotId() + 1, again.head().snapshotId());
      }
    } finally {
      ObjectStoreSpec.dropInMemory(name);
    }
  }
}
