package dev.moraine.core.catalog;

/**
 * Stored bytes are damaged or do not follow the format: a record that does not decode, a checksum
 * the store refused, or a record that contradicts another (a head naming a snapshot that is not
 * there). The message names the record. Nothing was written and nothing partial was returned;
 * reading the same record again gives the same error. Do not retry: the lake needs repair from a
 * copy or the other implementation's tools.
 */
public final class CorruptionException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** Damage found; {@code cause} is the codec's or the store's own report, when there is one. */
  public CorruptionException(String message, Throwable cause) {
    super(ErrorCode.CORRUPTION, message, cause);
  }

  /** Damage found by the catalog itself. */
  public CorruptionException(String message) {
    super(ErrorCode.CORRUPTION, message);
  }
}
