package dev.moraine.core.catalog;

/**
 * An argument is outside what the method accepts (a null, a malformed option). Checked before
 * anything is read or written: nothing changed. Fix the call.
 */
public final class InvalidArgumentException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A refused argument; the message names it. */
  public InvalidArgumentException(String message) {
    super(ErrorCode.INVALID_ARGUMENT, message);
  }
}
