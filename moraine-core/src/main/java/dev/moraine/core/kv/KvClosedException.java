package dev.moraine.core.kv;

/**
 * The handle was closed (by the caller, or by the store after a fatal error) before or during the
 * call. Nothing further can be done with the handle.
 */
public final class KvClosedException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvClosedException(String message) {
    super(message);
  }

  public KvClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
