package dev.moraine.ducklake.ops;

/**
 * Thrown when operations are combined into one commit that DuckLake would refuse to commit
 * together: compaction with any other change, or an operation outside the snapshot protocol with
 * one inside it.
 */
public final class IncompatibleOperationsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what cannot be combined
   */
  public IncompatibleOperationsException(String message) {
    super(message);
  }
}
