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
}
