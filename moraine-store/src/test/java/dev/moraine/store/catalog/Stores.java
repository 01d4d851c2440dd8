package dev.moraine.store.catalog;

import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/** Real SlateDB stores for the catalog tests: named in-memory ones and local directories. */
final class Stores {
  private Stores() {}

  static StoreSettings settings() {
    return StoreSettings.defaults()
        .withFlushTimerOff()
        .withManifestPollInterval(Duration.ofMillis(100))
        .withReaderPollInterval(Duration.ofMillis(100))
        .withObjectStoreMaxRetries(2);
  }

  /** A provider over a fresh in-memory object store; drop it with {@link #drop}. */
  static SlateStoreProvider inMemory() {
    return new SlateStoreProvider(
        StoreConfig.of(ObjectStoreSpec.inMemory("catalog-" + UUID.randomUUID()), "lake")
            .withSettings(settings()));
  }

  /** A provider over a local directory. */
  static SlateStoreProvider local(Path dir) {
    return new SlateStoreProvider(
        StoreConfig.of(new ObjectStoreSpec.LocalDirectory(dir), "lake").withSettings(settings()));
  }

  static void drop(SlateStoreProvider provider) {
    if (provider.config().objectStore() instanceof ObjectStoreSpec.InMemory m) {
      ObjectStoreSpec.dropInMemory(m.name());
    }
  }
}
