package dev.moraine.core.catalog.model;

import dev.moraine.core.catalog.InvalidArgumentException;
import java.time.Instant;

/**
 * What {@code Catalog.deleteOrphanedFiles} looks for, as {@code ducklake_delete_orphaned_files}
 * does: objects under the data path that no snapshot references and that the deletion schedule does
 * not name, last written before a time. A dry run unless {@link #deleting()} is asked for.
 *
 * <p>The time guards files a writer has written but not yet committed: it should lie further back
 * than any commit takes to land after its files are written.
 */
public final class OrphanSearch {
  private final Instant olderThan;
  private final boolean delete;

  private OrphanSearch(Instant olderThan, boolean delete) {
    this.olderThan = olderThan;
    this.delete = delete;
  }

  /**
   * Objects last written before {@code instant}; nothing is deleted.
   *
   * @throws InvalidArgumentException if {@code instant} is null
   */
  public static OrphanSearch writtenBefore(Instant instant) {
    if (instant == null) {
      throw new InvalidArgumentException("the orphan age threshold must not be null");
    }
    return new OrphanSearch(instant, false);
  }

  /** This search, deleting the orphans it finds. */
  public OrphanSearch deleting() {
    return new OrphanSearch(olderThan, true);
  }

  public Instant writtenBeforeTime() {
    return olderThan;
  }

  public boolean deletes() {
    return delete;
  }

  @Override
  public String toString() {
    return "OrphanSearch[written before " + olderThan + (delete ? ", deleting" : ", dry run") + "]";
  }
}
