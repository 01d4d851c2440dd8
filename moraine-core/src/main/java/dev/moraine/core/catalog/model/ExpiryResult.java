package dev.moraine.core.catalog.model;

import java.util.List;

/**
 * What {@code Catalog.expireSnapshots} did, or with a dry run would do.
 *
 * @param expiredSnapshotIds the snapshots expired (for a dry run: that would be), ascending
 * @param recordsRemoved how many records no retained snapshot could see were removed: ended entity
 *     versions, the records of fully dropped tables, their inlined data, and file statistics (0 for
 *     a dry run)
 * @param scheduledFileIds the data and delete files scheduled for deletion, ascending (empty for a
 *     dry run)
 * @param batches how many store writes the expiry took, each a head-preserving batch (0 for a dry
 *     run or when nothing was to be done)
 * @param dryRun whether nothing was written
 */
public record ExpiryResult(
    List<Long> expiredSnapshotIds,
    long recordsRemoved,
    List<Long> scheduledFileIds,
    int batches,
    boolean dryRun) {
  public ExpiryResult {
    expiredSnapshotIds = List.copyOf(expiredSnapshotIds);
    scheduledFileIds = List.copyOf(scheduledFileIds);
  }
}
