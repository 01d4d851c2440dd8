package dev.moraine.core.kv;

import java.util.Optional;

/**
 * Opens handles on one configured store location. The engine receives a provider and decides which
 * handles it needs; implementations carry the location and settings.
 */
public interface KvStoreProvider {

  /**
   * Opens the read-write handle, creating an empty store if there is none. Fences any writer that
   * already holds the store.
   *
   * @throws KvUnavailableException if the object store cannot be reached; no handle was opened, but
   *     whether the open got far enough to create the store or fence another writer is unknown
   * @throws KvInvalidArgumentException if the settings are refused
   * @throws KvDataException if the store exists but cannot be read
   * @throws KvOutcomeUnknownException if opening did not finish within the implementation's
   *     operation timeout or the thread was interrupted: no handle was opened, and whether the
   *     store was created and another writer fenced is unknown
   */
  KvStore openWriter();

  /**
   * Opens a read-only handle on an existing store.
   *
   * @throws KvDataException if there is no store, or the checkpoint does not exist
   * @throws KvUnavailableException if the object store cannot be reached
   */
  KvReader openReader(ReaderMode mode);

  /**
   * Where the handles this provider opens keep the store's write-ahead log when it has an object
   * store of its own, or empty when the log is kept in the store's own object store: what {@link
   * KvStore#walStore()} of a handle it opens answers, known before any is opened.
   */
  Optional<String> walStore();
}
