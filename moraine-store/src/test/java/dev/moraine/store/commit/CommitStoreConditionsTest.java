package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FencedException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.FaultInjector.Operation;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A commit under object-store conditions other than a clean failure: slow PUTs and GETs, a WAL PUT
 * held past the operation bound, a new writer fencing the lake while the commit's WAL PUT is held,
 * and a write-ahead log kept in an object store of its own. Each ends in the documented outcome
 * (RFC 0004 §6): a commit that returns landed; one that throws {@link
 * CommitOutcomeUnknownException} was not re-run, and the lake reopened holds it wholly or not at
 * all; a {@link FencedException} before hand-over wrote nothing.
 */
class CommitStoreConditionsTest {
  private static StoreSettings settings(Duration operationTimeout) {
    return StoreSettings.defaults()
        .withFlushTimerOff()
        .withManifestPollInterval(Duration.ofMillis(100))
        .withObjectStoreMaxRetries(1)
        .withOperationTimeout(operationTimeout);
  }

  /**
   * A lake in named in-memory object stores (the catalog's, and optionally a separate one for the
   * write-ahead log), each seen through its own fault injector; the history is written before the
   * case starts.
   */
  private static final class Lake implements AutoCloseable {
    final String name = "conditions-" + UUID.randomUUID();
    final ObjectStoreSpec inner = ObjectStoreSpec.inMemory(name);
    final ObjectStoreSpec walInner;
    final FaultInjector injector = new FaultInjector();
    final FaultInjector walInjector = new FaultInjector();
    final KvStore store;
    final Catalog catalog;

    Lake(boolean separateWal, Duration operationTimeout) {
      walInner = separateWal ? ObjectStoreSpec.inMemory(name + "-wal") : null;
      store = open(true, operationTimeout);
      catalog = Catalog.open(store, CatalogOptions.defaults());
      CommitUnderTest.history(catalog);
    }

    private KvStore open(boolean faulty, Duration operationTimeout) {
      StoreConfig config =
          StoreConfig.of(faulty ? ObjectStoreSpec.faulty(inner, injector) : inner, "lake")
              .withSettings(settings(operationTimeout));
      if (walInner != null) {
        config =
            config.withWalObjectStore(
                faulty ? ObjectStoreSpec.faulty(walInner, walInjector) : walInner);
      }
      return new SlateStoreProvider(config).openWriter();
    }

    /** Opens a second writer on the same lake without faults: it fences this one. */
    KvStore openRival() {
      return open(false, Duration.ofSeconds(20));
    }

    /** The whole dump with times zeroed, read by a writer opened afresh (fencing this one). */
    String reopenedDump() {
      try {
        catalog.close();
        store.close();
      } catch (MoraineException | KvException expected) {
        // A handle that was fenced or timed out reports what it could not flush; the reopen below
        // tells what holds.
      }
      injector.reset();
      walInjector.reset();
      try (KvStore reopened = open(false, Duration.ofSeconds(20));
          Catalog again = Catalog.open(reopened, CatalogOptions.defaults())) {
        return CommitUnderTest.withoutTimes(CatalogDump.allToString(again));
      }
    }

    @Override
    public void close() {
      injector.close();
      walInjector.close();
      ObjectStoreSpec.dropInMemory(name);
      if (walInner != null) {
        ObjectStoreSpec.dropInMemory(name + "-wal");
      }
    }
  }

  /** The dumps before and after the commit under test, from a run without any condition. */
  private record Reference(String before, String after) {
    void assertWhole(String dump) {
      if (!dump.equals(before) && !dump.equals(after)) {
        assertEquals(after, dump, "the lake holds the commit neither wholly nor not at all");
      }
    }
  }

  private static Reference reference(boolean separateWal) {
    // Both read back from the object stores: a catalog that wrote the history keeps the views it
    // built on the way, which show an unversioned record (a table's stats) as it was then.
    String before;
    try (Lake lake = new Lake(separateWal, Duration.ofSeconds(20))) {
      before = lake.reopenedDump();
    }
    try (Lake lake = new Lake(separateWal, Duration.ofSeconds(20))) {
      lake.catalog.commit(CommitUnderTest::run);
      return new Reference(before, lake.reopenedDump());
    }
  }

  @Test
  void slowPutsAndGets_delayTheCommitButChangeNothingInIt() {
    Reference reference = reference(false);
    try (Lake lake = new Lake(false, Duration.ofSeconds(20))) {
      lake.injector.latency(Duration.ofMillis(40), Duration.ofMillis(10));
      long walPuts = lake.injector.completed(Operation.PUT, FaultInjector.WAL);
      assertEquals(3, lake.catalog.commit(CommitUnderTest::run));
      assertTrue(
          lake.injector.completed(Operation.PUT, FaultInjector.WAL) > walPuts,
          "the commit's WAL PUT went through the slowed store");
      assertEquals(reference.after(), lake.reopenedDump());
    }
  }

  @Test
  void aWalPutHeldPastTheOperationBound_isAnUnknownOutcome_neverRetried() {
    Reference reference = reference(false);
    try (Lake lake = new Lake(false, Duration.ofSeconds(1))) {
      lake.injector.holdPuts(FaultInjector.WAL);
      assertUnknownOutcomeOnce(lake);
      lake.injector.releasePuts();
      String reopened = lake.reopenedDump();
      reference.assertWhole(reopened);
    }
  }

  @Test
  void anUnknownOutcome_isSettledByANewWriterAsTheErrorsPageSays() {
    try (Lake lake = new Lake(false, Duration.ofSeconds(1))) {
      lake.injector.holdPuts(FaultInjector.WAL);
      long id = assertUnknownOutcomeOnce(lake).attemptedSnapshotId().orElseThrow();
      lake.injector.releasePuts();
      String reopened = lake.reopenedDump();
      try (KvStore store = lake.openRival();
          Catalog again = Catalog.open(store, CatalogOptions.defaults())) {
        boolean landed =
            id <= again.head().snapshotId()
                && again
                    .snapshotAt(id)
                    .info()
                    .commitMessage()
                    .equals(Optional.of(CommitUnderTest.MESSAGE));
        // The recipe's answer agrees with what the lake holds: the table the commit creates.
        assertEquals(landed, again.snapshot().tableByName(0, "u").isPresent(), reopened);
        // Either way the lake takes the next commit, under the next id.
        assertEquals(
            again.head().snapshotId() + 1,
            again.commit(tx -> tx.createTable(0, "after", List.of(ColumnDef.of("c", "int32")))));
      }
    }
  }

  @Test
  void aFenceWhileTheWalPutIsHeld_endsTheCommitHonestly() throws Exception {
    Reference reference = reference(false);
    try (Lake lake = new Lake(false, Duration.ofSeconds(20))) {
      AtomicInteger runs = new AtomicInteger();
      lake.injector.holdPuts(FaultInjector.WAL);
      CompletableFuture<Long> commit =
          CompletableFuture.supplyAsync(
              () ->
                  lake.catalog.commit(
                      tx -> {
                        runs.incrementAndGet();
                        CommitUnderTest.run(tx);
                      }));
      // Whether the commit has reached its WAL PUT when the rival opens decides which of the two
      // honest outcomes it gets; both are checked below. The pause makes the held PUT the usual
      // case.
      Thread.sleep(300);
      try (KvStore rival = lake.openRival()) {
        lake.injector.releasePuts();
        Throwable thrown = assertThrows(Exception.class, commit::join).getCause();
        assertEquals(1, runs.get(), "a fenced or unknown commit is never retried");
        if (thrown instanceof CommitOutcomeUnknownException unknown) {
          assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, unknown.code());
        } else if (thrown instanceof FencedException fenced) {
          assertEquals(ErrorCode.FENCED, fenced.code());
        } else {
          fail("a fenced commit must end unknown or fenced, not in " + thrown);
        }
        // The fenced writer takes no further commit.
        assertThrows(
            FencedException.class,
            () -> lake.catalog.commit(tx -> tx.createTable(0, "later", List.of())));
      }
      String reopened = lake.reopenedDump();
      reference.assertWhole(reopened);
    }
  }

  @Test
  void aSeparateWalStore_carriesTheCommitsLog() {
    Reference reference = reference(true);
    try (Lake lake = new Lake(true, Duration.ofSeconds(20))) {
      long walPuts = lake.walInjector.completed(Operation.PUT, null);
      long mainPuts = nonManifestPuts(lake.injector);
      assertEquals(3, lake.catalog.commit(CommitUnderTest::run));
      assertTrue(
          lake.walInjector.completed(Operation.PUT, null) > walPuts,
          "the commit's log went to the WAL store");
      // The main store takes only the manifest updates that publish (and prune) checkpoints.
      assertEquals(
          mainPuts,
          nonManifestPuts(lake.injector),
          "the commit wrote nothing else to the main store");
      assertEquals(reference.after(), lake.reopenedDump());
    }
  }

  private static long nonManifestPuts(FaultInjector injector) {
    return injector.completed(Operation.PUT, null)
        - injector.completed(Operation.PUT, FaultInjector.MANIFEST);
  }

  @Test
  void everyPutOfTheWalStoreFailing_isAnUnknownOutcome() {
    Reference reference = reference(true);
    try (Lake lake = new Lake(true, Duration.ofSeconds(20))) {
      lake.walInjector.failPuts(0, 1_000, null, false);
      assertUnknownOutcomeOnce(lake);
      assertTrue(lake.walInjector.injectedPutFailures() > 0, "the WAL store's PUTs failed");
      String reopened = lake.reopenedDump();
      reference.assertWhole(reopened);
    }
  }

  /**
   * Runs the commit under test on {@code lake}, which must end in an unknown outcome, and checks
   * that the closure ran once: an unknown outcome is never retried.
   */
  private static CommitOutcomeUnknownException assertUnknownOutcomeOnce(Lake lake) {
    AtomicInteger runs = new AtomicInteger();
    CommitOutcomeUnknownException e =
        assertThrows(
            CommitOutcomeUnknownException.class,
            () ->
                lake.catalog.commit(
                    tx -> {
                      runs.incrementAndGet();
                      CommitUnderTest.run(tx);
                    }));
    assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, e.code());
    assertEquals(1, runs.get(), "an unknown outcome is never retried");
    assertEquals(OptionalLong.of(3), e.attemptedSnapshotId(), "the snapshot the commit would mint");
    return e;
  }
}
