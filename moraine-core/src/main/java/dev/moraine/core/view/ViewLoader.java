package dev.moraine.core.view;

import dev.moraine.core.kv.KvReadView;
import java.util.function.Function;

/**
 * How a {@link SnapshotView} reads the store: one call per demand load, over one consistent state,
 * with store and codec errors translated into the catalog's exceptions.
 */
public interface ViewLoader {
  /**
   * Runs {@code body} over one consistent state of the store.
   *
   * @param what what the load is for, for error messages
   */
  <T> T load(String what, Function<KvReadView, T> body);

  /**
   * Whether a load for {@code view} must also check that the view's snapshot has not been expired
   * meanwhile. False by default: a loader reading one fixed state (a commit's store transaction)
   * never sees an expiry land.
   */
  default boolean mayBeExpired(SnapshotView view) {
    return false;
  }
}
