package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.LakeObject;
import java.util.List;

/**
 * The objects under a lake's data path, as the file cleanup and the orphan search reach them: a
 * local directory or an object-store prefix, which the host (or {@code moraine-store}'s {@code
 * ObjectStoreLakeFiles}) provides. Paths are relative to the data path and use {@code /}.
 *
 * <p>Implementations must be safe for use by one thread at a time; each call may fail with a {@link
 * StoreUnavailableException}.
 */
public interface LakeFiles {
  /** Every object under the data path, in no particular order. */
  List<LakeObject> list();

  /** Deletes the object at {@code path}; an object that is not there counts as deleted. */
  void delete(String path);

  /**
   * Whether {@link #deleteOutside} can delete the file an absolute path outside the data path names
   * (a file registered from elsewhere, as {@code ducklake_add_data_files} allows). False by
   * default: such files are then left, and reported.
   */
  default boolean reachesOutside(String absolutePath) {
    return false;
  }

  /**
   * Deletes the file {@code absolutePath} names, outside the data path, as stock DuckLake's cleanup
   * deletes it through DuckDB's file system; a file that is not there counts as deleted.
   *
   * @throws UnsupportedOperationException if {@link #reachesOutside} says no
   */
  default void deleteOutside(String absolutePath) {
    throw new UnsupportedOperationException("these lake files reach only the data path");
  }
}
