package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** A catalog over a fresh in-memory SlateDB, for the commit tests. */
final class CommitLake implements AutoCloseable {
  final String name = "commit-" + UUID.randomUUID();
  final KvStore store;
  final Catalog catalog;

  /**
   * A second writer catalog on the same store handle, opened on first use: its commits land through
   * a commit path of their own, so a body of {@link #catalog} can wait for one of them and lose the
   * race for the head to it (commits of one catalog share batches and never race).
   */
  private Catalog rival;

  CommitLake() {
    StoreSettings settings =
        StoreSettings.defaults()
            .withFlushTimerOff()
            .withManifestPollInterval(Duration.ofMillis(100))
            .withReaderPollInterval(Duration.ofMillis(100))
            .withObjectStoreMaxRetries(2);
    store =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake").withSettings(settings))
            .openWriter();
    catalog = Catalog.open(store, CatalogOptions.defaults());
  }

  /** Every key and value of the store, hex-encoded. */
  SortedMap<String, String> contents() {
    HexFormat hex = HexFormat.of();
    SortedMap<String, String> all = new TreeMap<>();
    try (KvIterator it = store.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        all.put(hex.formatHex(kv.key()), hex.formatHex(kv.value()));
      }
    }
    return all;
  }

  /**
   * Commits {@code body} and asserts that it is refused with a {@code type}, and that the store
   * holds afterwards exactly what it held before. Returns the refusal.
   */
  <T extends MoraineException> T refused(Class<T> type, CommitBody body) {
    SortedMap<String, String> before = contents();
    T e = assertThrows(type, () -> catalog.commit(body));
    assertEquals(before, contents(), "a refused commit changed the store");
    return e;
  }

  /** {@link #refused(Class, CommitBody)}, asserting the refusal's code too. */
  <T extends MoraineException> T refused(Class<T> type, ErrorCode code, CommitBody body) {
    T e = refused(type, body);
    assertEquals(code, e.code());
    return e;
  }

  /**
   * {@link #racing(int, CommitBody, AtomicInteger, CommitBody)} for a caller that counts no runs.
   */
  CommitBody racing(int races, CommitBody rival, CommitBody mine) {
    return racing(races, rival, new AtomicInteger(), mine);
  }

  /** The second writer catalog on this lake's store (see {@link #rival}). */
  synchronized Catalog rival() {
    if (rival == null) {
      rival = Catalog.open(store, CatalogOptions.defaults());
    }
    return rival;
  }

  /**
   * {@code mine} as a closure that loses its first {@code races} runs: each of them, after running
   * {@code mine}, commits {@code rival} through the {@link #rival()} catalog and waits for it, so
   * the head moves under the running commit. {@code runs} counts every run. The wait is what orders
   * the rival's commit before this one's submission; the rival never waits for this commit, so
   * nothing deadlocks.
   */
  CommitBody racing(int races, CommitBody rival, AtomicInteger runs, CommitBody mine) {
    return tx -> {
      int run = runs.incrementAndGet();
      mine.run(tx);
      if (run <= races) {
        CompletableFuture.runAsync(() -> rival().commit(rival)).join();
      }
    };
  }

  @Override
  public void close() {
    synchronized (this) {
      if (rival != null) {
        rival.close();
      }
    }
    catalog.close();
    store.close();
    ObjectStoreSpec.dropInMemory(name);
  }
}
