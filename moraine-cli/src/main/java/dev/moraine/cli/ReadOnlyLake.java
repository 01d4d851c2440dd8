package dev.moraine.cli;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.SlateStoreProvider;
import java.nio.file.Path;

/**
 * A lake in a local directory opened for a command that only reads: through a latest-following
 * reader, which writes nothing to the store, after checking that the directory holds a lake (so
 * nothing is created). Closing closes the catalog, then the reader it borrows.
 */
final class ReadOnlyLake implements AutoCloseable {
  private final KvReader reader;
  private final ReadOnlyCatalog catalog;

  private ReadOnlyLake(KvReader reader, ReadOnlyCatalog catalog) {
    this.reader = reader;
    this.catalog = catalog;
  }

  /**
   * Opens the lake in {@code directory}, its database at {@code storePath} inside it.
   *
   * @throws CliFailure when the directory or the database is missing; nothing was opened
   */
  static ReadOnlyLake open(Path directory, String storePath) {
    StoreOptions where = new StoreOptions();
    where.directory = directory;
    where.storePath = storePath;
    KvReader reader =
        new SlateStoreProvider(where.existingStoreConfig()).openReader(ReaderMode.followLatest());
    try {
      return new ReadOnlyLake(reader, Catalog.openReadOnly(reader, CatalogOptions.defaults()));
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** The reader the catalog reads through, for reads below the catalog (the census). */
  KvReader reader() {
    return reader;
  }

  ReadOnlyCatalog catalog() {
    return catalog;
  }

  @Override
  public void close() {
    try (KvReader r = reader) {
      catalog.close();
    }
  }
}
