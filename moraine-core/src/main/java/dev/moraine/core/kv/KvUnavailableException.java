package dev.moraine.core.kv;

/**
 * The object store could not be reached, or failed, within the configured retries; or the call
 * failed part-way for a reason the caller cannot fix (an internal error, a panic in native code). A
 * read may be repeated. A write that reports this after submission may or may not be durable: its
 * outcome is unknown. After a panic the handle is closed, so later calls on it throw {@link
 * KvClosedException}.
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
