package dev.moraine.core.catalog.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One object under a lake's data path.
 *
 * @param path its path relative to the data path, with {@code /} between folders
 * @param sizeBytes its size
 * @param lastModified when it was last written
 */
public record LakeObject(String path, long sizeBytes, Instant lastModified) {
  public LakeObject {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
