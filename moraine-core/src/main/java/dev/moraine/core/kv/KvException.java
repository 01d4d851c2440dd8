package dev.moraine.core.kv;

/**
 * Root of the store's failures. Unchecked; subtypes say what the caller can do next.
 *
 * <p>Unless a subtype says otherwise, a method that throws leaves the store as it was before the
 * call, with one exception that every write method documents: a write that fails <em>after</em> it
 * was handed to the store may or may not be durable.
 */
public abstract class KvException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected KvException(String message) {
    super(message);
  }

  protected KvException(String message, Throwable cause) {
    super(message, cause);
  }
}
