package dev.moraine.core.catalog.model;

import java.util.List;

/**
 * What {@code Catalog.cleanupOldFiles} did, or with a dry run would do.
 *
 * @param deleted the scheduled files whose objects were deleted and whose schedule records were
 *     removed (with a dry run: that would be), by file id
 * @param unreachable the scheduled files left as they are because their path lies outside the data
 *     path and the {@code LakeFiles} cannot reach it ({@code LakeFiles.reachesOutside})
 * @param batches how many head-preserving batches removed schedule records
 * @param dryRun whether nothing was deleted or written
 */
public record CleanupResult(
    List<ScheduledDeletion> deleted,
    List<ScheduledDeletion> unreachable,
    int batches,
    boolean dryRun) {
  public CleanupResult {
    deleted = List.copyOf(deleted);
    unreachable = List.copyOf(unreachable);
  }
}
