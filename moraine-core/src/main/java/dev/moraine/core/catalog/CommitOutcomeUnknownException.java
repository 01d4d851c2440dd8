package dev.moraine.core.catalog;

import java.util.OptionalLong;

/**
 * The commit failed after its batch was handed to the store (the write, or the flush that makes it
 * durable, failed, timed out or was interrupted). The commit may have landed, wholly, or not at
 * all; never partly. It is not retried. Keep any files the commit registered, reopen or re-read the
 * catalog and look for the commit's effect before doing it again. If the cause is a fence, this
 * catalog handle is dead.
 *
 * <p>To settle the outcome, open the lake with a new writer (which fences this one, so nothing of
 * it can land afterwards) and read {@link #attemptedSnapshotId()}: the commit landed exactly when
 * that snapshot exists and is the commit's own, which a token of the caller's in its commit
 * information ({@link Transaction#setCommitInfo}) tells apart from a snapshot another writer minted
 * under the same id (docs/errors.md).
 */
public final class CommitOutcomeUnknownException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** Whether the commit would have minted a snapshot, and which (meaningless when it would not). */
  private final boolean mintsSnapshot;

  private final long attemptedSnapshotId;

  /** An unknown outcome, with the store's failure as the cause, of a commit that mints nothing. */
  public CommitOutcomeUnknownException(String message, Throwable cause) {
    this(message, cause, OptionalLong.empty());
  }

  /**
   * An unknown outcome, with the store's failure as the cause, of a commit that would have minted
   * {@code attemptedSnapshotId} (empty for one that mints no snapshot, such as an options change).
   */
  public CommitOutcomeUnknownException(
      String message, Throwable cause, OptionalLong attemptedSnapshotId) {
    super(ErrorCode.COMMIT_OUTCOME_UNKNOWN, message, cause);
    this.mintsSnapshot = attemptedSnapshotId.isPresent();
    this.attemptedSnapshotId = attemptedSnapshotId.orElse(0);
  }

  /**
   * The id of the snapshot the commit would have minted if it landed: the commit is there exactly
   * when a catalog that fenced this writer shows that snapshot with the commit's own information.
   * Empty for a commit that mints no snapshot (options only), whose effect is its option values.
   */
  public OptionalLong attemptedSnapshotId() {
    return mintsSnapshot ? OptionalLong.of(attemptedSnapshotId) : OptionalLong.empty();
  }
}
