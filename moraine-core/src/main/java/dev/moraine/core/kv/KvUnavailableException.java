package dev.moraine.core.kv;

/**
 * The object store could not be reached, or failed, within the configured retries, during a read or
 * while opening a handle. Nothing the caller asked to write was written; a read may be repeated. (A
 * native call that failed internally, for example one that panicked, is reported this way too; if
 * it was a write, treat its outcome as unknown.)
 *
 * <p>A write, flush, commit, checkpoint or close that fails this way after handing its effect to
 * the store is reported as {@link KvOutcomeUnknownException} with reason {@link
 * KvOutcomeUnknownException.Reason#STORE_FAILURE}.
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
