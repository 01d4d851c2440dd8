package dev.moraine.core.catalog;

/**
 * The thread waiting for a commit was interrupted before the commit was handed to the store:
 * nothing of it was written, and nothing of it will be. The thread's interrupt flag is set. An
 * interrupt that comes after the hand-over ends the wait with {@link CommitOutcomeUnknownException}
 * instead, since the commit may still land.
 */
public final class CommitInterruptedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** An interrupted commit that wrote nothing. */
  public CommitInterruptedException(String message) {
    super(ErrorCode.INTERRUPTED, message);
  }
}
