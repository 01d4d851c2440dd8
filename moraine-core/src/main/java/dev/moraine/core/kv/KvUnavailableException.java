package dev.moraine.core.kv;

/**
 * The object store could not be reached, or failed, within the configured retries, during a read or
 * while opening a handle; or a native call failed internally (a panic) before it handed anything to
 * the store. Nothing the caller asked to write was written; a read may be repeated. After a panic
 * the handle is closed, so later calls on it throw {@link KvClosedException}.
 *
 * <p>A read (or opening a snapshot, a transaction, a scan or a reader) that did not finish within
 * its bound, or whose thread was interrupted while it waited, fails this way too: it wrote nothing,
 * the handle stays usable, and an interrupted thread's interrupt flag is still set. A scan stopped
 * part-way is unusable from then on (every later step throws the same), since it cannot resume
 * without a gap.
 *
 * <p>A write, flush, commit, checkpoint or close that fails this way (a panic included) after
 * handing its effect to the store is reported as {@link KvOutcomeUnknownException} with reason
 * {@link KvOutcomeUnknownException.Reason#STORE_FAILURE}.
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
