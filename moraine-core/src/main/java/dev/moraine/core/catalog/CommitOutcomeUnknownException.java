package dev.moraine.core.catalog;

/**
 * The commit failed after its batch was handed to the store (the write, or the flush that makes it
 * durable, failed, timed out or was interrupted). The commit may have landed, wholly, or not at
 * all; never partly. It is not retried. Keep any files the commit registered, reopen or re-read the
 * catalog and look for the commit's effect before doing it again. If the cause is a fence, this
 * catalog handle is dead.
 */
public final class CommitOutcomeUnknownException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** An unknown outcome, with the store's failure as the cause. */
  public CommitOutcomeUnknownException(String message, Throwable cause) {
    super(ErrorCode.COMMIT_OUTCOME_UNKNOWN, message, cause);
  }
}
