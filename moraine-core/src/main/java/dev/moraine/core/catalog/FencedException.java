package dev.moraine.core.catalog;

/**
 * Another writer has opened the store since this handle did, so this handle may no longer write.
 * Terminal for the store handle and every catalog over it: close them and, if this process should
 * be the writer, open new ones (which fences the other). Nothing this call attempted was written.
 */
public final class FencedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A fence; {@code cause} is the store's report. */
  public FencedException(String message, Throwable cause) {
    super(ErrorCode.FENCED, message, cause);
  }
}
