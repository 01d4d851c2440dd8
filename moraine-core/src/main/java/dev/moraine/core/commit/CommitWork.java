package dev.moraine.core.commit;

import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.SnapshotView;

/**
 * What one commit does, as the commit path sees it: given a premise, run once and say what was
 * done. The path may run it more than once (each time against a newer premise), so it must have no
 * effect outside what it returns.
 */
public interface CommitWork {
  /**
   * Runs once against {@code premise}, whose snapshot record is {@code premiseRecord}, and returns
   * what the run did.
   *
   * @throws RuntimeException whatever the work throws; the path decides from its type whether the
   *     commit is refused or the work runs again
   */
  Draft run(SnapshotView premise, SnapshotValue premiseRecord);

  /**
   * Whether this work cannot be moved onto a head newer than the one it was made for (staged rows
   * of a schema change, RFC 0006 §14): it is staged only as the first member of a batch, never
   * behind another member, and when it loses a race, arrivals yield to its re-drive ({@link
   * Admission#yieldArrivals}).
   */
  default boolean commitsAlone() {
    return false;
  }
}
