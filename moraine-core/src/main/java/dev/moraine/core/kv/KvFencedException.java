package dev.moraine.core.kv;

/**
 * A newer writer opened the same store, so this handle may no longer write, and the handle knew it
 * before the call handed anything to the store: the refused call wrote nothing. Every later call on
 * the handle fails the same way. Terminal for the handle: close it.
 *
 * <p>A fence discovered <em>after</em> a call handed its effect to the store (by a flush, a wait
 * for durability, a commit) proves nothing about that effect and is reported as {@link
 * KvOutcomeUnknownException} with reason {@link KvOutcomeUnknownException.Reason#FENCED} instead.
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
