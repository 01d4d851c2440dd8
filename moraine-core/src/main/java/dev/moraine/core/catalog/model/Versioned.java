package dev.moraine.core.catalog.model;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One version of a versioned entity as it stands in the record of a snapshot S: the version began
 * at or before S, and {@code endSnapshot} is the snapshot that ended it when that is at or before
 * S. A version that was still live at S has no end here, even if a later snapshot ended it, which
 * is how DuckLake's own tables looked right after S.
 *
 * @param version the entity version (its {@code beginSnapshot} is at or before S)
 * @param endSnapshot the snapshot that ended it, when that is at or before S
 * @param <T> the entity record type
 */
public record Versioned<T>(T version, OptionalLong endSnapshot) {
  /**
   * @throws NullPointerException if either component is null
   */
  public Versioned {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(endSnapshot, "endSnapshot");
  }

  /** Whether the version was live at S (it has no end at or before S). */
  public boolean live() {
    return endSnapshot.isEmpty();
  }
}
