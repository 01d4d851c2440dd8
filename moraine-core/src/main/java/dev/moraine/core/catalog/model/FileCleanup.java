package dev.moraine.core.catalog.model;

import dev.moraine.core.catalog.InvalidArgumentException;
import java.time.Instant;
import java.util.Optional;

/**
 * Which scheduled files {@code Catalog.cleanupOldFiles} deletes, as {@code
 * ducklake_cleanup_old_files} chooses them: those scheduled before a time, or all of them.
 * Immutable.
 *
 * <p>A file is scheduled when no snapshot references it any more (a merge replaced it, or an expiry
 * removed every snapshot that read it); readers that still hold an older view may read it until it
 * is deleted, so the time should lie further back than any reader keeps a view.
 */
public final class FileCleanup {
  private final Optional<Instant> olderThan;
  private final boolean dryRun;

  private FileCleanup(Optional<Instant> olderThan, boolean dryRun) {
    this.olderThan = olderThan;
    this.dryRun = dryRun;
  }

  /**
   * The files scheduled before {@code instant} ({@code older_than}).
   *
   * @throws InvalidArgumentException if {@code instant} is null
   */
  public static FileCleanup scheduledBefore(Instant instant) {
    if (instant == null) {
      throw new InvalidArgumentException("the cleanup time must not be null");
    }
    return new FileCleanup(Optional.of(instant), false);
  }

  /** Every scheduled file, whenever it was scheduled ({@code cleanup_all}). */
  public static FileCleanup all() {
    return new FileCleanup(Optional.empty(), false);
  }

  /** This cleanup, naming the files it would delete and deleting nothing. */
  public FileCleanup dryRun() {
    return new FileCleanup(olderThan, true);
  }

  /** The time before which a file must have been scheduled; empty for every file. */
  public Optional<Instant> scheduledBeforeTime() {
    return olderThan;
  }

  public boolean isDryRun() {
    return dryRun;
  }

  @Override
  public String toString() {
    return "FileCleanup["
        + olderThan.map(t -> "scheduled before " + t).orElse("all")
        + (dryRun ? ", dry run" : "")
        + "]";
  }
}
