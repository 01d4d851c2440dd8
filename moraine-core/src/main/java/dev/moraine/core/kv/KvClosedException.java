package dev.moraine.core.kv;

/**
 * The handle was closed before the call handed anything to the store: by the caller, by the store
 * after a fatal error, or by the binding after an earlier call on the handle panicked in native
 * code (its state is unknown). The refused call wrote nothing. Nothing further can be done with the
 * handle except closing it; whether writes made through it before are durable is known only for
 * those acknowledged as durable ({@link KvStore#durableSeqnum()} stays readable).
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
