package dev.moraine.core.catalog;

/**
 * The commit lost the race for the head to concurrent commits on every one of its attempts, each
 * time to changes that did not conflict with it. Nothing of this commit was written; the catalog
 * holds what the other commits made. The caller may try again later. The message deliberately
 * avoids the words DuckLake's retry loop treats as retryable, so that two retry loops do not
 * multiply.
 */
public final class RetryBudgetExhaustedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** An exhausted budget; the message names the starting head and the commits that won. */
  public RetryBudgetExhaustedException(String message) {
    super(ErrorCode.RETRY_BUDGET_EXHAUSTED, message);
  }
}
