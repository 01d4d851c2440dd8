package dev.moraine.core.catalog;

import java.util.Optional;

/**
 * How a catalog is opened.
 *
 * @param dataPath the lake's data path, recorded in the global options when this open creates the
 *     catalog (ignored when the store already holds one: the recorded value stands)
 * @param encrypted whether data files are encrypted, recorded at creation as above; reserved
 *     afterwards
 * @param snapshotCacheSize how many snapshot views the catalog keeps for reuse (at least 1); a
 *     count, not a weight: each cached view keeps what it has loaded
 */
public record CatalogOptions(Optional<String> dataPath, boolean encrypted, int snapshotCacheSize) {
  /** The default number of snapshot views kept. */
  public static final int DEFAULT_SNAPSHOT_CACHE_SIZE = 64;

  /**
   * Validates the options.
   *
   * @throws InvalidArgumentException if {@code dataPath} is null or holds an empty string, or the
   *     cache size is below 1; nothing was opened
   */
  public CatalogOptions {
    if (dataPath == null) {
      throw new InvalidArgumentException("dataPath must not be null (use Optional.empty())");
    }
    if (dataPath.isPresent() && dataPath.get().isEmpty()) {
      throw new InvalidArgumentException("dataPath must not be empty");
    }
    if (snapshotCacheSize < 1) {
      throw new InvalidArgumentException(
          "snapshotCacheSize must be at least 1, got " + snapshotCacheSize);
    }
  }

  /** No data path, not encrypted, the default cache size. */
  public static CatalogOptions defaults() {
    return new CatalogOptions(Optional.empty(), false, DEFAULT_SNAPSHOT_CACHE_SIZE);
  }

  /** These options with {@code dataPath} recorded at creation. */
  public CatalogOptions withDataPath(String path) {
    return new CatalogOptions(Optional.ofNullable(path), encrypted, snapshotCacheSize);
  }

  /** These options with the encryption flag recorded at creation. */
  public CatalogOptions withEncrypted(boolean on) {
    return new CatalogOptions(dataPath, on, snapshotCacheSize);
  }

  /** These options with another snapshot cache size. */
  public CatalogOptions withSnapshotCacheSize(int size) {
    return new CatalogOptions(dataPath, encrypted, size);
  }
}
