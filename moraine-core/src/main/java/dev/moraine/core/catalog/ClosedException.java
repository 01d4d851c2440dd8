package dev.moraine.core.catalog;

/**
 * The catalog, or the store handle under it, was closed before or during the call. Nothing was
 * written. Terminal for that handle: open a new one.
 */
public final class ClosedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A call on a closed handle; {@code cause} is the store's report when the store was closed. */
  public ClosedException(String message, Throwable cause) {
    super(ErrorCode.CLOSED, message, cause);
  }
}
