package dev.moraine.core.kv;

/**
 * The handle was closed (by the caller, or by the store after a fatal error) before the call handed
 * anything to the store: the refused call wrote nothing. Nothing further can be done with the
 * handle.
 *
 * <p>A close that overtakes a call <em>after</em> it handed its effect to the store is reported as
 * {@link KvOutcomeUnknownException} with reason {@link KvOutcomeUnknownException.Reason#CLOSED}.
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
