package dev.moraine.core.catalog;

/**
 * A concurrent commit landed a change that DuckLake's conflict rules say this commit cannot be
 * applied on top of (for example, both altered one table, or one dropped a table the other inserted
 * into). Nothing of this commit was written; the catalog holds exactly what the other commits made.
 * Re-read the catalog and re-drive the operation if it still makes sense. The message contains the
 * word "conflict", which DuckLake's retry loop looks for.
 */
public final class CommitConflictException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A true conflict; the message names the colliding changes. */
  public CommitConflictException(String message) {
    super(ErrorCode.COMMIT_CONFLICT, message);
  }
}
