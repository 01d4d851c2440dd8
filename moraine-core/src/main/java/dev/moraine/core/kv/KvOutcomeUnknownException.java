package dev.moraine.core.kv;

/**
 * A call failed <em>after</em> its effect was handed to the store, and the store cannot tell
 * whether the effect took place: a write may or may not be applied and durable, a flush may or may
 * not have made the writes before it durable, a checkpoint may or may not exist.
 *
 * <p>What holds afterwards: unknown. Only the store's durable sequence number decides: a write
 * whose {@link WriteReceipt#seqnum()} is at or below {@link KvStore#durableSeqnum()} is durable
 * (that number stays readable after the handle closed). For a write above it, reopen the store and
 * read back what it holds; never repeat a write blindly.
 *
 * <p>{@link #reason()} says what lay behind the failure; {@link #getCause()} carries the store's
 * own exception where there was one. Whether the handle is still usable depends on the reason:
 * after {@link Reason#FENCED}, {@link Reason#CLOSED} and {@link Reason#STORE_FAILURE} every later
 * call fails (the handle is dead: close it and open a new writer); after {@link Reason#TIMEOUT} and
 * {@link Reason#INTERRUPTED} the handle may still work.
 */
public final class KvOutcomeUnknownException extends KvException {
  private static final long serialVersionUID = 1L;

  /** What kept the store from proving the outcome. */
  public enum Reason {
    /** A newer writer fenced this handle, or the store took one of its own objects for one. */
    FENCED,
    /** The handle closed (by the caller or after a fatal error) before the outcome was proven. */
    CLOSED,
    /** The object store failed beyond its retries, or the native store call failed internally. */
    STORE_FAILURE,
    /** The call's time bound passed first; the store may still complete the effect later. */
    TIMEOUT,
    /** The calling thread was interrupted; its interrupt flag is set again. */
    INTERRUPTED
  }

  private final Reason reason;

  public KvOutcomeUnknownException(Reason reason, String message) {
    this(reason, message, null);
  }

  public KvOutcomeUnknownException(Reason reason, String message, Throwable cause) {
    super("outcome unknown (" + reason + "): " + message, cause);
    if (reason == null) {
      throw new IllegalArgumentException("reason must not be null");
    }
    this.reason = reason;
  }

  /** What lay behind the failure. */
  public Reason reason() {
    return reason;
  }
}
