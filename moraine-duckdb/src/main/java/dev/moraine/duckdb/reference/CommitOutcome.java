package dev.moraine.duckdb.reference;

/**
 * How a {@code COMMIT} issued through {@link ReferenceSession#tryCommit()} ended.
 *
 * @param committed true when the transaction landed
 * @param error DuckDB's error message when it did not, otherwise null
 */
public record CommitOutcome(boolean committed, String error) {

  static CommitOutcome landed() {
    return new CommitOutcome(true, null);
  }

  static CommitOutcome failed(String error) {
    return new CommitOutcome(false, error);
  }

  /** True when the commit failed with a message DuckLake's own retry loop would call a conflict. */
  public boolean isConflict() {
    if (committed || error == null) {
      return false;
    }
    String m = error.toLowerCase(java.util.Locale.ROOT);
    return m.contains("conflict")
        || m.contains("concurrent")
        || m.contains("primary key")
        || m.contains("unique");
  }
}
