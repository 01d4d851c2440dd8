package dev.moraine.core.commit;

import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.StoreUnavailableException;
import java.util.List;

/**
 * How a batch ended, and what each of its callers is told (acknowledgement). A batch that landed is
 * durable and covered by a published checkpoint (when publication is on); one that was not written
 * failed before the store took it; one whose outcome is unknown failed after.
 */
sealed interface BatchFate {
  /** Durable, and covered by a published checkpoint when publication is on. */
  record Landed() implements BatchFate {}

  /** Nothing of the batch was written; {@code failure} is what every member is told. */
  record NotWritten(RuntimeException failure) implements BatchFate {}

  /** The batch reached the store and may or may not be there; {@code cause} is why. */
  record Unknown(String why, Throwable cause) implements BatchFate {}

  BatchFate LANDED = new Landed();

  /**
   * Completes every caller of {@code requests} (one batch's, in order) as this fate says. A request
   * whose work threw is told what it threw once its premise is known to have landed; while that is
   * unknown it is told the store failed (nothing of it was written either way).
   */
  default void deliver(List<CommitRequest> requests) {
    for (CommitRequest r : requests) {
      if (this instanceof Landed) {
        if (r.thrown != null) {
          r.outcome.completeExceptionally(r.thrown);
        } else {
          r.outcome.complete(idList(r.snapshotIds));
        }
      } else if (this instanceof NotWritten n) {
        r.outcome.completeExceptionally(n.failure());
      } else if (this instanceof Unknown u) {
        if (r.wrote) {
          r.outcome.completeExceptionally(
              new CommitOutcomeUnknownException(
                  "the commit"
                      + r.attemptedSnapshotId().stream()
                          .mapToObj(id -> " of snapshot " + Long.toUnsignedString(id))
                          .findFirst()
                          .orElse(" of option changes")
                      + " "
                      + u.why()
                      + "; it may or may not have landed, wholly or not at all",
                  u.cause(),
                  r.attemptedSnapshotId()));
        } else {
          StoreUnavailableException e =
              new StoreUnavailableException(
                  "nothing of this commit was written, but the commits it was judged against "
                      + u.why()
                      + ", so what it saw may never have landed: read the catalog again",
                  u.cause());
          if (r.thrown != null) {
            e.addSuppressed(r.thrown);
          }
          r.outcome.completeExceptionally(e);
        }
      }
    }
  }

  private static List<Long> idList(long[] ids) {
    Long[] boxed = new Long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      boxed[i] = ids[i];
    }
    return List.of(boxed);
  }
}
