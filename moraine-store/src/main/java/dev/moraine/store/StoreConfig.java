package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;

/**
 * Where a store lives and how it is opened: an object store, the path of the database inside it,
 * the settings, and optionally a separate object store for the write-ahead log.
 *
 * @param objectStore the object store holding manifests and SSTs
 * @param path the database's path inside the object store, for example {@code "catalog"}
 * @param settings SlateDB settings
 * @param walObjectStore a separate object store for the write-ahead log, or null to keep it in
 *     {@code objectStore}. Every handle on the store must be opened with the same choice.
 */
public record StoreConfig(
    ObjectStoreSpec objectStore,
    String path,
    StoreSettings settings,
    ObjectStoreSpec walObjectStore) {

  /** Checks the values. */
  public StoreConfig {
    if (objectStore == null) {
      throw new KvInvalidArgumentException("object store must be given");
    }
    if (path == null) {
      throw new KvInvalidArgumentException("path must not be null");
    }
    if (settings == null) {
      throw new KvInvalidArgumentException("settings must not be null");
    }
  }

  /** The store at {@code path} in {@code objectStore}, default settings, WAL in the same store. */
  public static StoreConfig of(ObjectStoreSpec objectStore, String path) {
    return new StoreConfig(objectStore, path, StoreSettings.defaults(), null);
  }

  /** With other settings. */
  public StoreConfig withSettings(StoreSettings newSettings) {
    return new StoreConfig(objectStore, path, newSettings, walObjectStore);
  }

  /** With the write-ahead log in a separate object store (null to keep it in the main one). */
  public StoreConfig withWalObjectStore(ObjectStoreSpec walStore) {
    return new StoreConfig(objectStore, path, settings, walStore);
  }
}
