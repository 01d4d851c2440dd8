package dev.moraine.core.kv;

/**
 * A newer writer opened the same store, so this handle may no longer write. The failed operation
 * wrote nothing durable; every later call on the handle fails the same way. Terminal for the
 * handle: close it.
 */
public final class KvFencedException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvFencedException(String message) {
    super(message);
  }

  public KvFencedException(String message, Throwable cause) {
    super(message, cause);
  }
}
