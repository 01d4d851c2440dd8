package dev.moraine.core.catalog.model;

import java.util.List;

/**
 * What {@code Catalog.deleteOrphanedFiles} found.
 *
 * @param orphans the objects under the data path that no snapshot references, the schedule does not
 *     name, and that were last written before the search's time, by path
 * @param deleted whether they were deleted (false for a dry run)
 */
public record OrphanResult(List<LakeObject> orphans, boolean deleted) {
  public OrphanResult {
    orphans = List.copyOf(orphans);
  }
}
