package dev.moraine.duckdb.session;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The session tests' two lakes: ours (a catalog on an in-memory SlateDB store, its data path in a
 * directory) and stock DuckLake's, with one data inlining row limit.
 */
final class SessionLake implements AutoCloseable {
  final KvStore store;
  final Catalog catalog;
  final ReferenceDuckLake stock;

  private SessionLake(KvStore store, Catalog catalog, ReferenceDuckLake stock) {
    this.store = store;
    this.catalog = catalog;
    this.stock = stock;
  }

  /** Both lakes under {@code dir}, inlining at most {@code inliningRowLimit} rows. */
  static SessionLake open(Path dir, long inliningRowLimit) throws Exception {
    KvStore store =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory("session-" + UUID.randomUUID()), "lake"))
            .openWriter();
    Catalog catalog =
        Catalog.open(
            store,
            CatalogOptions.defaults()
                .withDataPath(dir.resolve("data").toAbsolutePath() + "/")
                .withDataInliningRowLimit(inliningRowLimit));
    ReferenceDuckLake stock =
        ReferenceDuckLake.builder(dir.resolve("stock"))
            .dataInliningRowLimit(inliningRowLimit)
            .open();
    return new SessionLake(store, catalog, stock);
  }

  @Override
  public void close() throws Exception {
    try {
      stock.close();
    } finally {
      try {
        catalog.close();
      } finally {
        store.close();
      }
    }
  }
}
