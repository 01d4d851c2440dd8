package dev.moraine.core.kv;

/**
 * A transaction lost a write-write race: another write committed to one of its keys after the
 * transaction began. Nothing of the transaction was written; the caller may begin a new transaction
 * and try again.
 */
public final class KvTransactionConflictException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvTransactionConflictException(String message) {
    super(message);
  }

  public KvTransactionConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
