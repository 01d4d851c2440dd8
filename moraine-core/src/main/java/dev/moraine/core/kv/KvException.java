package dev.moraine.core.kv;

/**
 * Root of the store's failures. Unchecked; subtypes say what the caller can do next.
 *
 * <p>Unless a subtype says otherwise, a method that throws leaves the store as it was before the
 * call, with one exception that every write method documents: a call that fails <em>after</em> it
 * handed its effect to the store throws {@link KvOutcomeUnknownException}, and what holds
 * afterwards is unknown.
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
