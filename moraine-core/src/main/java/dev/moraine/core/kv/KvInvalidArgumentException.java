package dev.moraine.core.kv;

/**
 * The store refused an argument (an empty or oversized key or value, an empty batch, a bad
 * setting). Thrown before anything reaches the store: nothing was written.
 */
public final class KvInvalidArgumentException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvInvalidArgumentException(String message) {
    super(message);
  }

  public KvInvalidArgumentException(String message, Throwable cause) {
    super(message, cause);
  }
}
