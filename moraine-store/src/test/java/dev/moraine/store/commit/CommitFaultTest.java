package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import dev.moraine.store.commit.FaultingKvStore.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A failure injected at each store call of a commit ends in the documented outcome, and a reopen
 * shows the catalog whole: the commit's records all there or all absent.
 *
 * <p>The calls are not listed by hand: a fault-free run of the same commit on the same history
 * names every call it makes into the store (transaction, head reads, entity reads through
 * snapshots, staging, commit, write-ahead-log flush), and each of them in turn is then made to fail
 * inside the native binding, on a fresh lake. Calls that hand an effect to SlateDB (the transaction
 * commit and the flush) fail once before and once after the hand-over. Object-store faults under
 * SlateDB (the WAL PUT failing before or after it lands, GETs of the catalog's SSTs failing) are
 * injected through the native {@link FaultInjector}.
 *
 * <p>Outcomes, as RFC 0004 documents them: a failure before the commit is handed to the store is a
 * {@link StoreUnavailableException} and nothing is written; a failure from the hand-over on is a
 * {@link CommitOutcomeUnknownException}, and the closure is never re-run.
 */
class CommitFaultTest {
  /** The calls that hand the commit to SlateDB; a failure from them on may leave it applied. */
  private static final Set<String> SUBMITTING = Set.of("tx.commit", "store.flushWal");

  /** The call that publishes the checkpoint covering the commit, once it is durable. */
  private static final String PUBLISHING = "store.createCheckpoint";

  private static StoreSettings settings() {
    return StoreSettings.defaults()
        .withFlushTimerOff()
        .withManifestPollInterval(Duration.ofMillis(100))
        .withObjectStoreMaxRetries(1)
        .withOperationTimeout(Duration.ofSeconds(20));
  }

  /** The history every case starts from: a table and one data file in it. */
  /**
   * A lake in a named in-memory object store, opened through the call-naming decorator over a
   * fault-injecting object store. Closing it drops the object store.
   */
  private static final class Lake implements AutoCloseable {
    final String name;
    final ObjectStoreSpec inner;
    final FaultInjector injector = new FaultInjector();
    final FaultingKvStore store;
    final Catalog catalog;

    /** The whole dump of the history, read back before this handle opened (see withHistory). */
    String before;

    /**
     * A second writer catalog on the same store (publication off, so that nothing of it runs after
     * its commits return), for the raced cases: opened and used with naming suspended.
     */
    private Catalog rival;

    Catalog rival() {
      if (rival == null) {
        store.unrecorded(
            () ->
                rival =
                    Catalog.open(
                        store, CatalogOptions.defaults().withCheckpointPublication(false)));
      }
      return rival;
    }

    private Lake(String name, boolean publish) {
      this.name = name;
      this.inner = ObjectStoreSpec.inMemory(name);
      store =
          new FaultingKvStore(
              new SlateStoreProvider(
                      StoreConfig.of(ObjectStoreSpec.faulty(inner, injector), "lake")
                          .withSettings(settings()))
                  .openWriter());
      catalog = Catalog.open(store, CatalogOptions.defaults().withCheckpointPublication(publish));
    }

    /**
     * A new lake holding the {@link #history}, closed cleanly and opened again, so that every dump
     * compared in a case is a dump of a lake read back from the object store. (A catalog that wrote
     * a history keeps the views it built on the way, and those show an unversioned record, such as
     * a table's stats, as it was then; a lake read back shows it as it is now.)
     */
    static Lake withHistory() {
      return withHistory(true);
    }

    /** {@link #withHistory()}, the lake's catalog publishing checkpoints or not. */
    static Lake withHistory(boolean publish) {
      String name = "fault-" + UUID.randomUUID();
      Lake first = new Lake(name, true);
      CommitUnderTest.history(first.catalog);
      first.catalog.close();
      first.store.close();
      first.injector.close();
      String before = readBack(first.inner);
      Lake lake = new Lake(name, publish);
      lake.before = before;
      return lake;
    }

    /**
     * The whole dump of the lake as read back by a fresh writer, which is then closed. Opening that
     * writer fences any other, so this is called only once the lake's own handles are closed.
     */
    static String readBack(ObjectStoreSpec inner) {
      try (KvStore reopened =
              new SlateStoreProvider(StoreConfig.of(inner, "lake").withSettings(settings()))
                  .openWriter();
          Catalog again = Catalog.open(reopened, CatalogOptions.defaults())) {
        return CatalogDump.allToString(again);
      }
    }

    /**
     * Closes the faulted handles, then opens the lake afresh without faults and returns its whole
     * dump, after checking that it takes a next commit on top of whatever it holds.
     */
    String closeAndReadBack() {
      store.stop();
      try {
        if (rival != null) {
          rival.close();
          rival = null;
        }
        catalog.close();
        store.close();
      } catch (MoraineException | KvException expected) {
        // A handle the fault closed or broke reports what it could not flush; the reopen below
        // is what tells what holds.
      }
      injector.reset();
      String dump = readBack(inner);
      try (KvStore reopened =
              new SlateStoreProvider(StoreConfig.of(inner, "lake").withSettings(settings()))
                  .openWriter();
          Catalog again = Catalog.open(reopened, CatalogOptions.defaults())) {
        long head = again.head().snapshotId();
        assertEquals(
            head + 1,
            again.commit(tx -> tx.createTable(0, "next", List.of(ColumnDef.of("c", "int32")))));
      }
      return dump;
    }

    @Override
    public void close() {
      if (rival != null) {
        rival.close();
      }
      injector.close();
      ObjectStoreSpec.dropInMemory(name);
    }
  }

  /** What a fault-free run shows: the calls of the commit, and the dump after it (times zeroed). */
  private record Reference(List<String> calls, String after) {}

  private static Reference reference() {
    try (Lake lake = Lake.withHistory()) {
      lake.store.record(-1, null);
      lake.catalog.commit(CommitUnderTest::run);
      List<String> calls = lake.store.calls();
      lake.store.stop();
      lake.catalog.close();
      lake.store.close();
      return new Reference(calls, CommitUnderTest.withoutTimes(Lake.readBack(lake.inner)));
    }
  }

  @TestFactory
  Stream<DynamicTest> aFailureAtEachStoreCall_endsInTheDocumentedOutcome_andLeavesTheLakeWhole() {
    Reference reference = reference();
    // The commit path as RFC 0004 describes it; if it changes, the list of cases changes with it.
    assertEquals("store.begin", reference.calls().get(0), "the transaction opens first");
    assertTrue(reference.calls().contains("tx.putAll"), reference.calls().toString());
    assertEquals(
        List.of("tx.commit", "store.flushWal", PUBLISHING),
        reference.calls().subList(reference.calls().size() - 3, reference.calls().size()));
    List<DynamicTest> cases = new ArrayList<>();
    for (int i = 0; i < reference.calls().size(); i++) {
      String call = reference.calls().get(i);
      int index = i;
      cases.add(
          DynamicTest.dynamicTest(
              "call " + i + " " + call + " fails before submission",
              () -> faultAt(index, call, Mode.BEFORE_SUBMISSION, reference)));
      if (SUBMITTING.contains(call) || call.equals(PUBLISHING)) {
        cases.add(
            DynamicTest.dynamicTest(
                "call " + i + " " + call + " fails after submission",
                () -> faultAt(index, call, Mode.AFTER_SUBMISSION, reference)));
      }
    }
    return cases.stream();
  }

  private static void faultAt(int index, String call, Mode mode, Reference reference) {
    try (Lake lake = Lake.withHistory()) {
      String before = lake.before;
      int[] runs = {0};
      Consumer<Transaction> counted =
          tx -> {
            runs[0]++;
            CommitUnderTest.run(tx);
          };
      lake.store.record(index, mode);
      if (call.equals(PUBLISHING)) {
        // The commit is durable when its publication fails (here the failure kills the handle, so
        // it is not tried again): unknown to the caller, never re-run, and there on reopening.
        CommitOutcomeUnknownException e =
            assertThrows(
                CommitOutcomeUnknownException.class, () -> lake.catalog.commit(counted::accept));
        assertTrue(e.getMessage().contains("is durable"), e.getMessage());
        assertEquals(call, lake.store.failed(), "the fault reached the call it was aimed at");
        assertEquals(1, runs[0], "a failed publication never re-runs the mutation");
        assertEquals(reference.after(), CommitUnderTest.withoutTimes(lake.closeAndReadBack()));
        return;
      }
      boolean submitted =
          call.equals("store.flushWal")
              || (call.equals("tx.commit") && mode == Mode.AFTER_SUBMISSION);
      MoraineException e =
          assertThrows(MoraineException.class, () -> lake.catalog.commit(counted::accept));
      assertEquals(call, lake.store.failed(), "the fault reached the call it was aimed at");
      assertTrue(runs[0] <= 1, "a store failure is never retried; runs " + runs[0]);
      String after = lake.closeAndReadBack();
      if (submitted) {
        assertEquals(CommitOutcomeUnknownException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, e.code());
        assertEquals(1, runs[0], "an unknown outcome is never retried");
        assertWhole(before, reference.after(), after);
      } else {
        assertEquals(StoreUnavailableException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.STORE_UNAVAILABLE, e.code());
        assertEquals(before, after, "a failure before submission writes nothing");
      }
    }
  }

  // ---- the same commit, raced: it loses the head once and runs again -------------------------

  /**
   * The commit under test on its first run lets another commit land first (a table of its own,
   * committed by a second writer catalog while the closure waits, its calls not named), so the
   * attempt loses the head, classifies the winner (benign: a different table) and runs again. Every
   * call from the first run to the landing of the second is then failed in turn, the classification
   * reads and the second attempt's calls included.
   */
  private static void racedUnderTest(Lake lake, Transaction tx, int run) {
    CommitUnderTest.run(tx);
    if (run == 1) {
      Catalog rival = lake.rival();
      lake.store.unrecorded(
          () ->
              CompletableFuture.runAsync(
                      () ->
                          rival.commit(
                              other ->
                                  other.createTable(
                                      0, "other", List.of(ColumnDef.of("o", "int64")))))
                  .join());
    }
  }

  /**
   * A fault-free raced run: its calls, the index of the first call after the other commit landed,
   * and the dumps (times zeroed) with the other commit alone and with both.
   */
  private record RacedReference(
      List<String> calls, int otherLandedAt, String otherOnly, String both) {}

  private static RacedReference racedReference() {
    String otherOnly;
    try (Lake lake = Lake.withHistory()) {
      lake.catalog.commit(
          other -> other.createTable(0, "other", List.of(ColumnDef.of("o", "int64"))));
      lake.catalog.close();
      lake.store.close();
      otherOnly = CommitUnderTest.withoutTimes(Lake.readBack(lake.inner));
    }
    try (Lake lake = Lake.withHistory()) {
      int[] runs = {0};
      int[] landedAt = {-1};
      lake.store.record(-1, null);
      lake.catalog.commit(
          tx -> {
            runs[0]++;
            racedUnderTest(lake, tx, runs[0]);
            if (runs[0] == 1) {
              landedAt[0] = lake.store.named();
            }
          });
      assertEquals(2, runs[0], "the raced commit ran twice");
      List<String> calls = lake.store.calls();
      lake.store.stop();
      lake.catalog.close();
      lake.store.close();
      return new RacedReference(
          calls, landedAt[0], otherOnly, CommitUnderTest.withoutTimes(Lake.readBack(lake.inner)));
    }
  }

  @TestFactory
  Stream<DynamicTest> aFailureAtEachStoreCallOfARacedCommit_endsInTheDocumentedOutcome() {
    RacedReference reference = racedReference();
    List<String> calls = reference.calls();
    int last = calls.size() - 1;
    assertEquals(PUBLISHING, calls.get(last));
    assertEquals("store.flushWal", calls.get(last - 1));
    assertEquals("tx.commit", calls.get(last - 2));
    assertEquals(
        2,
        calls.stream().filter("store.begin"::equals).count(),
        "two attempts, each in its own transaction: " + calls);
    List<DynamicTest> cases = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      String call = calls.get(i);
      int index = i;
      cases.add(
          DynamicTest.dynamicTest(
              "call " + i + " " + call + " fails before submission",
              () -> racedFaultAt(index, Mode.BEFORE_SUBMISSION, reference)));
      // Only the landing attempt submits: the first attempt's commit is refused by the store
      // before anything is handed over.
      if (i >= last - 2) {
        cases.add(
            DynamicTest.dynamicTest(
                "call " + i + " " + call + " fails after submission",
                () -> racedFaultAt(index, Mode.AFTER_SUBMISSION, reference)));
      }
    }
    return cases.stream();
  }

  private static void racedFaultAt(int index, Mode mode, RacedReference reference) {
    List<String> calls = reference.calls();
    String call = calls.get(index);
    try (Lake lake = Lake.withHistory()) {
      String before = lake.before;
      AtomicInteger runs = new AtomicInteger();
      lake.store.record(index, mode);
      if (call.equals(PUBLISHING)) {
        assertThrows(
            CommitOutcomeUnknownException.class,
            () -> lake.catalog.commit(tx -> racedUnderTest(lake, tx, runs.incrementAndGet())));
        assertEquals(call, lake.store.failed(), "the fault reached the call it was aimed at");
        assertEquals(2, runs.get(), "a failed publication never re-runs the mutation");
        assertEquals(reference.both(), CommitUnderTest.withoutTimes(lake.closeAndReadBack()));
        return;
      }
      MoraineException e =
          assertThrows(
              MoraineException.class,
              () -> lake.catalog.commit(tx -> racedUnderTest(lake, tx, runs.incrementAndGet())));
      assertEquals(call, lake.store.failed(), "the fault reached the call it was aimed at");
      assertTrue(runs.get() <= 2, "runs " + runs.get());
      boolean submitted = index == calls.size() - 2 || mode == Mode.AFTER_SUBMISSION;
      String after = lake.closeAndReadBack();
      if (submitted) {
        assertEquals(CommitOutcomeUnknownException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, e.code());
        assertEquals(2, runs.get(), "an unknown outcome is never retried");
        if (!CommitUnderTest.withoutTimes(after).equals(reference.otherOnly())) {
          assertEquals(
              reference.both(), CommitUnderTest.withoutTimes(after), "neither without nor with it");
        }
      } else {
        assertEquals(StoreUnavailableException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.STORE_UNAVAILABLE, e.code());
        if (index < reference.otherLandedAt()) {
          assertEquals(before, after, "a failure before the race writes nothing");
        } else {
          assertEquals(
              reference.otherOnly(),
              CommitUnderTest.withoutTimes(after),
              "a failure before submission writes nothing of this commit");
        }
      }
    }
  }

  /** The reopened dump is exactly the one before the commit or (up to times) the one after it. */
  private static void assertWhole(String before, String expectedAfter, String reopened) {
    if (reopened.equals(before)) {
      return;
    }
    assertEquals(
        expectedAfter,
        CommitUnderTest.withoutTimes(reopened),
        "the reopened catalog is neither the state before the commit nor the state after it");
  }

  /**
   * The object-store operations a commit does not wait on when it publishes no checkpoint: with
   * every LIST and every manifest PUT failing, the commit still lands, so the cases above cover
   * every object-store operation on that path (GETs of SSTs, the WAL PUT). (The writer's background
   * manifest polling may meet those failures meanwhile; they are not counted here, since they
   * belong to no commit.) With publication on, the manifest PUT is the publication: see {@link
   * #aCommitWhosePublicationKeepsFailing_isDurableButUnknown_andNeverReRun}.
   */
  @Test
  void aCommit_landsWhileListsAndManifestWritesFail() {
    try (Lake lake = Lake.withHistory(false)) {
      lake.injector.failLists(0, 1_000, null);
      lake.injector.failPuts(0, 1_000, FaultInjector.MANIFEST, false);
      long walPuts = lake.injector.putCount(FaultInjector.WAL);
      long landed = lake.catalog.commit(CommitUnderTest::run);
      assertEquals(3, landed);
      assertTrue(
          lake.injector.putCount(FaultInjector.WAL) > walPuts, "the commit's WAL PUT landed");
      lake.injector.reset();
      lake.catalog.close();
      lake.store.close();
    }
  }

  @Test
  void aCommitWhosePublicationKeepsFailing_isDurableButUnknown_andNeverReRun() {
    try (Lake lake = Lake.withHistory()) {
      int[] runs = {0};
      lake.injector.failPuts(0, 1_000, FaultInjector.MANIFEST, false);
      CommitOutcomeUnknownException e =
          assertThrows(
              CommitOutcomeUnknownException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        runs[0]++;
                        CommitUnderTest.run(tx);
                      }));
      assertTrue(e.getMessage().contains("is durable"), e.getMessage());
      assertEquals(1, runs[0], "publication failures never re-run the mutation");
      assertEquals(3, e.attemptedSnapshotId().orElseThrow());
      lake.injector.reset();
      String after = CommitUnderTest.withoutTimes(lake.closeAndReadBack());
      assertTrue(after.contains("\"snapshot_id\":3"), "the durable commit is there on reopening");
    }
  }

  /** A case of an object-store fault under SlateDB, armed just before the commit under test. */
  private record StoreFault(String name, Consumer<FaultInjector> arm, boolean submitted) {
    @Override
    public String toString() {
      return name;
    }
  }

  @TestFactory
  Stream<DynamicTest> anObjectStoreFaultDuringACommit_endsInTheDocumentedOutcome() {
    Reference reference = reference();
    List<StoreFault> faults =
        List.of(
            new StoreFault(
                "every WAL PUT fails before it lands",
                i -> i.failPuts(0, 1_000, FaultInjector.WAL, false),
                true),
            new StoreFault(
                "the WAL PUT lands but its answer is lost, and its retries fail",
                i -> i.failPuts(0, 1_000, FaultInjector.WAL, true),
                true),
            new StoreFault(
                "every GET of the catalog's SSTs fails", i -> i.failGets(0, 1_000, null), false));
    return faults.stream()
        .map(f -> DynamicTest.dynamicTest(f.name(), () -> storeFault(f, reference)));
  }

  private static void storeFault(StoreFault fault, Reference reference) {
    try (Lake lake = Lake.withHistory()) {
      String before = lake.before;
      int[] runs = {0};
      fault.arm().accept(lake.injector);
      MoraineException e =
          assertThrows(
              MoraineException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        runs[0]++;
                        CommitUnderTest.run(tx);
                      }));
      long met =
          fault.submitted()
              ? lake.injector.injectedPutFailures()
              : lake.injector.injectedGetFailures();
      assertTrue(met > 0, "the commit met the injected failures");
      String after = lake.closeAndReadBack();
      if (fault.submitted()) {
        assertEquals(CommitOutcomeUnknownException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.COMMIT_OUTCOME_UNKNOWN, e.code());
        assertEquals(1, runs[0], "an unknown outcome is never retried");
        assertWhole(before, reference.after(), after);
      } else {
        assertEquals(StoreUnavailableException.class, e.getClass(), e.toString());
        assertEquals(ErrorCode.STORE_UNAVAILABLE, e.code());
        assertEquals(before, after, "a failure before submission writes nothing");
      }
    }
  }
}
