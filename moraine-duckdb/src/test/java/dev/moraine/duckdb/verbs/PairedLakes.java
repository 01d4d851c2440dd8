package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.util.UUID;

/**
 * The two sides of a differential test: a stock DuckLake lake and ours, a catalog on real SlateDB
 * in memory with the data path {@code /somewhere/data/}. Closing closes both and drops our store.
 */
final class PairedLakes implements AutoCloseable {
  final ReferenceDuckLake stock;
  final Catalog catalog;
  private final SlateStoreProvider provider;
  private final KvStore store;

  /** A second writer catalog on our store, opened on first use ({@link #rival()}). */
  private Catalog rival;

  /** Our catalog's options: the stock lake's data inlining row limit, and our data path. */
  private final CatalogOptions options;

  private PairedLakes(
      ReferenceDuckLake stock,
      SlateStoreProvider provider,
      KvStore store,
      Catalog catalog,
      CatalogOptions options) {
    this.stock = stock;
    this.options = options;
    this.provider = provider;
    this.store = store;
    this.catalog = catalog;
  }

  /**
   * Opens the stock lake {@code stockLake} describes and a fresh catalog of ours in an in-memory
   * store named after {@code name}. If ours cannot be opened, what was opened is closed again.
   */
  static PairedLakes open(ReferenceDuckLake.Builder stockLake, String name) throws Exception {
    ReferenceDuckLake stock = stockLake.open();
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory(name + "-" + UUID.randomUUID()), "lake"));
    KvStore store = null;
    try {
      store = provider.openWriter();
      CatalogOptions options =
          CatalogOptions.defaults()
              .withDataPath("/somewhere/data/")
              .withDataInliningRowLimit(stockLake.dataInliningRowLimit());
      Catalog catalog = Catalog.open(store, options);
      return new PairedLakes(stock, provider, store, catalog, options);
    } catch (Exception | Error e) {
      try (AutoCloseable s = stock) {
        if (store != null) {
          store.close();
        }
      } finally {
        dropStore(provider);
      }
      throw e;
    }
  }

  /**
   * A second writer catalog on our store: its commits land through a commit path of their own, so a
   * body of {@link #catalog} can wait for one and lose the race for the head to it, as one stock
   * session loses to another (commits of one catalog share batches and never race).
   */
  synchronized Catalog rival() {
    if (rival == null) {
      rival = Catalog.open(store, options);
    }
    return rival;
  }

  /** Our head rendered as ducklake_* rows. */
  DuckLakeRowSet ours() {
    return DuckLakeRowRenderer.render(catalog.snapshot());
  }

  @Override
  public void close() throws Exception {
    try {
      synchronized (this) {
        if (rival != null) {
          rival.close();
        }
      }
      catalog.close();
      store.close();
    } finally {
      dropStore(provider);
      stock.close();
    }
  }

  private static void dropStore(SlateStoreProvider provider) {
    ObjectStoreSpec.dropInMemory(
        ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
  }
}
