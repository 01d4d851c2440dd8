package dev.moraine.store.commit;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
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

/** A catalog over a fresh in-memory SlateDB, for the commit tests. */
final class CommitLake implements AutoCloseable {
  final String name = "commit-" + UUID.randomUUID();
  final KvStore store;
  final Catalog catalog;

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

  @Override
  public void close() {
    catalog.close();
    store.close();
    ObjectStoreSpec.dropInMemory(name);
  }
}
