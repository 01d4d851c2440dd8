package dev.moraine.core.catalog;

/**
 * The store failed, timed out, or kept changing under a read: an object-store error beyond its
 * retries, an interrupted wait. Reads leave nothing behind and can simply be repeated; an open that
 * fails with this wrote either nothing or a complete bootstrap (a later open finds out which and
 * carries on). The catalog handle stays usable unless the store handle itself was lost.
 */
public final class StoreUnavailableException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A store failure; {@code cause} is the store's report. */
  public StoreUnavailableException(String message, Throwable cause) {
    super(ErrorCode.STORE_UNAVAILABLE, message, cause);
  }

  /** A failure found by the catalog (a read that never found the store still). */
  public StoreUnavailableException(String message) {
    super(ErrorCode.STORE_UNAVAILABLE, message);
  }
}
