package dev.moraine.store;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvStoreProvider;
import dev.moraine.core.kv.ReaderMode;
import java.util.Objects;
import java.util.Optional;

/**
 * Opens SlateDB handles on one configured store. Each call opens a new handle; the provider holds
 * no native resources itself.
 *
 * <pre>{@code
 * var provider = new SlateStoreProvider(
 *     StoreConfig.of(ObjectStoreSpec.inMemory("demo"), "catalog"));
 * try (KvStore store = provider.openWriter()) {
 *   WriteReceipt receipt = store.write(new WriteBatch().put(key, value));
 *   store.flushWal(); // the flush timer is off unless the settings turn it on
 *   store.awaitDurable(receipt);
 * }
 * }</pre>
 */
public final class SlateStoreProvider implements KvStoreProvider {
  private final StoreConfig config;

  /** A provider for the store {@code config} describes. */
  public SlateStoreProvider(StoreConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The configuration this provider opens. */
  public StoreConfig config() {
    return config;
  }

  @Override
  public Optional<String> walStore() {
    return Optional.ofNullable(
        config.walObjectStore() == null ? null : config.walObjectStore().location());
  }

  @Override
  public KvStore openWriter() {
    StoreSettings settings = config.settings();
    long store = ObjectStoreHandles.open(config.objectStore());
    try {
      long walStore = ObjectStoreHandles.open(config.walObjectStore());
      try {
        long db =
            Native.dbOpen(
                store,
                config.path(),
                walStore,
                StoreSettings.millisOrNone(settings.flushInterval()),
                StoreSettings.millisOrNone(settings.manifestPollInterval()),
                settings.maxRetriesOrNone(),
                settings.compactor(),
                settings.garbageCollector(),
                settings.tagSegmentExtractor(),
                StoreSettings.millisOrNone(settings.operationTimeout()),
                StoreSettings.millisOrNone(settings.compactorPollInterval()),
                settings.l0SstBytesOrNone());
        return new SlateKvStore(
            db, settings.operationTimeout(), settings.flushInterval(), walStore().orElse(null));
      } finally {
        ObjectStoreHandles.free(walStore);
      }
    } finally {
      ObjectStoreHandles.free(store);
    }
  }

  @Override
  public KvReader openReader(ReaderMode mode) {
    if (mode == null) {
      throw new KvInvalidArgumentException("reader mode must not be null");
    }
    StoreSettings settings = config.settings();
    CheckpointId checkpoint = mode instanceof ReaderMode.Pinned pinned ? pinned.checkpoint() : null;
    long store = ObjectStoreHandles.open(config.objectStore());
    try {
      long walStore = ObjectStoreHandles.open(config.walObjectStore());
      try {
        long reader =
            Native.readerOpen(
                store,
                config.path(),
                walStore,
                checkpoint != null,
                checkpoint == null ? 0 : checkpoint.id().getMostSignificantBits(),
                checkpoint == null ? 0 : checkpoint.id().getLeastSignificantBits(),
                StoreSettings.millisOrNone(settings.readerPollInterval()),
                settings.maxRetriesOrNone(),
                settings.tagSegmentExtractor(),
                StoreSettings.millisOrNone(settings.operationTimeout()));
        return new SlateKvReader(reader, walStore().orElse(null));
      } finally {
        ObjectStoreHandles.free(walStore);
      }
    } finally {
      ObjectStoreHandles.free(store);
    }
  }
}
