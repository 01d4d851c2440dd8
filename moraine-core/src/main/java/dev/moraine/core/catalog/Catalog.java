package dev.moraine.core.catalog;

import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;

/**
 * The read-write catalog over a writer store. It reads as a {@link ReadOnlyCatalog} does; commits
 * are added to this type (and to this type only), so that a read-only catalog cannot commit.
 *
 * <p>Ownership: a catalog borrows the store handle it is opened on. Closing the catalog does not
 * close the handle; close the handle after the catalog. One writer store may carry one catalog.
 */
public interface Catalog extends ReadOnlyCatalog {
  /** Whether this open created the catalog (bootstrapped an empty store). */
  boolean createdByThisOpen();

  /**
   * Opens the catalog in a writer store, creating it first when the store is empty.
   *
   * <p>On an empty store, the bootstrap of RFC 0002 §11 is written as one transaction that
   * conflicts on {@code sys/head}: of several opens racing on one store, one commits it and the
   * others find its catalog and open that. On an initialised store nothing is written.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was read or written
   * @throws UnsupportedFormatException if the store's format is not 9 or it carries a migration
   *     marker; nothing was written
   * @throws CorruptionException if the store's records do not decode; nothing was written
   * @throws StoreUnavailableException if the store failed: the bootstrap, if one was attempted, is
   *     either wholly written or not at all, and opening again finds out which
   * @throws FencedException, ClosedException if the store handle is dead; nothing was written
   */
  static Catalog open(KvStore store, CatalogOptions options) {
    return CatalogOpener.openWriter(store, options);
  }

  /**
   * Opens the catalog of a store read-only through a reader handle (latest-following or pinned at a
   * checkpoint). Never writes and never bootstraps.
   *
   * @throws InvalidArgumentException if an argument is null
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if the store holds no catalog
   * @throws UnsupportedFormatException if the format is not 9 or a migration marker is present
   * @throws CorruptionException, StoreUnavailableException, ClosedException as for every read
   */
  static ReadOnlyCatalog openReadOnly(KvReader reader, CatalogOptions options) {
    return CatalogOpener.openReadOnly(reader, options);
  }

  /**
   * Opens the catalog of a writer store read-only: as {@link #openReadOnly(KvReader,
   * CatalogOptions)}, reading through the store's own snapshots. Never writes.
   */
  static ReadOnlyCatalog openReadOnly(KvStore store, CatalogOptions options) {
    return CatalogOpener.openReadOnly(store, options);
  }
}
