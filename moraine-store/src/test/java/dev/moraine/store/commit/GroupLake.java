package dev.moraine.store.commit;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A writer catalog over a named in-memory store seen through a fault injector, for the group commit
 * tests: PUTs can be counted, held and failed per object class, and the commit thread can be held
 * on purpose ({@link #holdCommitThread}) so that the commits arriving meanwhile form one batch.
 */
final class GroupLake implements AutoCloseable {
  final String name = "group-" + UUID.randomUUID();
  final ObjectStoreSpec inner = ObjectStoreSpec.inMemory(name);
  final FaultInjector injector = new FaultInjector();
  final CatalogOptions options;
  final KvStore store;
  final Catalog catalog;
  private boolean closed;

  GroupLake(CatalogOptions options) {
    this.options = options;
    this.store = open(true);
    this.catalog = Catalog.open(store, options);
  }

  /** Flush spacing zero, publication on, a short stall report. */
  GroupLake() {
    this(CatalogOptions.defaults().withFlushSpacing(Duration.ZERO));
  }

  KvStore open(boolean faulty) {
    StoreSettings settings =
        StoreSettings.defaults()
            .withFlushTimerOff()
            .withManifestPollInterval(Duration.ofMillis(100))
            .withReaderPollInterval(Duration.ofMillis(50))
            .withObjectStoreMaxRetries(1)
            .withOperationTimeout(Duration.ofSeconds(20));
    return new SlateStoreProvider(
            StoreConfig.of(faulty ? ObjectStoreSpec.faulty(inner, injector) : inner, "lake")
                .withSettings(settings))
        .openWriter();
  }

  SlateStoreProvider cleanProvider() {
    return new SlateStoreProvider(
        StoreConfig.of(inner, "lake")
            .withSettings(
                StoreSettings.defaults()
                    .withFlushTimerOff()
                    .withReaderPollInterval(Duration.ofMillis(50))));
  }

  /** PUTs of write-ahead-log objects that completed so far. */
  long walPuts() {
    return injector.putCount(FaultInjector.WAL);
  }

  /**
   * Makes the commit thread busy: a commit whose body waits for the returned latch. Commits made
   * until the latch is counted down queue up and then join the held commit's batch.
   */
  CountDownLatch holdCommitThread() throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread t =
        new Thread(
            () ->
                catalog.commit(
                    tx -> {
                      entered.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                      tx.setOption(
                          dev.moraine.core.catalog.model.OptionScope.global(),
                          "held",
                          UUID.randomUUID().toString());
                    }),
            "holder");
    t.start();
    entered.await();
    return release;
  }

  /** The whole dump with times zeroed, read by a writer opened afresh (this one closed first). */
  String reopenedDump() {
    closeQuietly();
    injector.reset();
    try (KvStore reopened = open(false);
        Catalog again = Catalog.open(reopened, options)) {
      return CommitUnderTest.withoutTimes(CatalogDump.allToString(again));
    }
  }

  /** Waits up to ten seconds for {@code condition}. */
  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(5);
    }
  }

  private void closeQuietly() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      catalog.close();
    } catch (MoraineException | KvException expected) {
      // A closed or failed catalog reports what it could not finish; the reopen tells what holds.
    }
    try {
      store.close();
    } catch (MoraineException | KvException expected) {
      // As above.
    }
  }

  @Override
  public void close() {
    closeQuietly();
    injector.close();
    ObjectStoreSpec.dropInMemory(name);
  }
}
