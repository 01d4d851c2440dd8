package dev.moraine.core.kv;

/**
 * The object store could not be reached, or failed, within the configured retries. A read may be
 * repeated. A write that reports this after submission may or may not be durable.
 */
public final class KvUnavailableException extends KvException {
  private static final long serialVersionUID = 1L;

  public KvUnavailableException(String message) {
    super(message);
  }

  public KvUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
