package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.conflict.ConflictMatrix;
import dev.moraine.ducklake.conflict.DeleteTargets;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import dev.moraine.store.commit.ConcurrentVerbModelPropertiesTest.Attempt;
import dev.moraine.store.forwarding.ForwardingKvStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * A commit whose submission lost only to an options-only batch is judged against no snapshot and
 * re-runs; a snapshot that lands after the runner read the winners is met by the re-run as its
 * premise, whatever the conflict matrix would have said of it (RFC 0004 §5). This is the race
 * behind the rarer failure of {@link ConcurrentVerbModelPropertiesTest} (RFC 0004 §9), which judged
 * such a re-run against the snapshot right after the first run's premise. Forced here: the first
 * run lands an options batch through a second writer catalog on the same store, and a store
 * decorator lands a delete file (through that catalog too) when the commit thread opens the
 * re-run's store transaction, after the read of the winners.
 */
class RaceAfterOptionsBatchTest {

  /** Runs a hook once, on the next transaction the given thread begins, before beginning it. */
  private static final class BeginHook extends ForwardingKvStore {
    private final AtomicReference<Runnable> armed = new AtomicReference<>();
    private volatile Thread on;

    BeginHook(KvStore delegate) {
      super(delegate);
    }

    void arm(Thread thread, Runnable hook) {
      on = thread;
      armed.set(hook);
    }

    @Override
    public KvTransaction begin() {
      if (Thread.currentThread() == on) {
        Runnable hook = armed.getAndSet(null);
        if (hook != null) {
          hook.run();
        }
      }
      return super.begin();
    }
  }

  private static List<Object> row(long a) {
    List<Object> r = new ArrayList<>();
    r.add(a);
    return r;
  }

  private static Attempt attempt(Transaction tx, CatalogModel.Intent intent) {
    return new Attempt(
        tx.premise().snapshotId(),
        tx.premise().builtAtHead().orElseThrow().batchSeq(),
        intent,
        null,
        "",
        "");
  }

  @Example
  void anInsertThatLostToAnOptionsBatchReRunsOnADeleteThatLandedAfterTheRunnerLooked() {
    String name = "options-race-" + UUID.randomUUID();
    KvStore raw =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                    .withSettings(StoreSettings.defaults().withFlushTimerOff()))
            .openWriter();
    BeginHook store = new BeginHook(raw);
    try (Catalog catalog = Catalog.open(store, CatalogOptions.defaults());
        Catalog rival = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
      catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 20, 100, 10)));
      CatalogModel.Intent insert = new CatalogModel.Intent.InsertInlined(1, 1);
      CatalogModel.Intent delete = new CatalogModel.Intent.RegisterDelete(1, 0);
      Map<Long, Attempt> landed = new TreeMap<>();
      List<Attempt> runs = new ArrayList<>();
      long id =
          catalog.commit(
              tx -> {
                runs.add(attempt(tx, insert));
                tx.insertInlined(1, List.of(row(7)));
                if (runs.size() == 1) {
                  // An options batch moves the head: this run's submission loses to it alone.
                  CompletableFuture.runAsync(
                          () -> rival.commit(o -> o.setOption(OptionScope.global(), "k", "v")))
                      .join();
                  // After the winners were found to mint no snapshot, the delete lands: when the
                  // commit thread (this body's thread) opens the re-run's transaction.
                  store.arm(
                      Thread.currentThread(),
                      () ->
                          CompletableFuture.runAsync(
                                  () -> {
                                    long at =
                                        rival.commit(
                                            d -> {
                                              landed.put(
                                                  d.premise().snapshotId() + 1, attempt(d, delete));
                                              d.registerDeleteFile(
                                                  1, NewDeleteFile.parquet(0, "d", 1, 50, 10));
                                            });
                                    assertEquals(3, at);
                                  })
                              .join());
                }
              });
      landed.put(id, runs.get(runs.size() - 1));
      assertEquals(List.of(2L, 3L), runs.stream().map(Attempt::premise).toList());
      assertEquals(4, id, "the re-run landed on the delete");
      // The delete right after the first run's premise is one the matrix calls a conflict for an
      // inlined insert: judged against it, the first run's race would have been a conflict.
      ChangeSet atThree = ChangesMade.parse(catalog.snapshotAt(3).info().changesMade());
      assertTrue(
          ConflictMatrix.check(InlineRaceVerdicts.mine(insert), atThree, DeleteTargets.unknown())
              .isConflict(),
          atThree.toString());
      // The race verdicts of the concurrent test know the options batch came first.
      List<InlineRaceVerdicts.Race> races = new ArrayList<>();
      InlineRaceVerdicts.lostRaces(runs, races);
      assertEquals(1, races.size());
      InlineRaceVerdicts.check(races, landed, catalog);
    } finally {
      store.close();
      ObjectStoreSpec.dropInMemory(name);
    }
  }
}
