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

  /**
   * The text DuckLake 1.5's conflict check puts into every conflict it reports, for example {@code
   * Transaction conflict - attempting to alter table with index "1" - but another transaction has
   * altered it}.
   */
  static final String DUCKLAKE_CONFLICT = "Transaction conflict - attempting to ";

  /**
   * DuckDB's own write-write conflict on a row of the metadata catalog, raised while a statement
   * runs (before DuckLake's check): two flushes of one table's inlined data delete the same rows.
   */
  static final String METADATA_ROW_CONFLICT = "Conflict on tuple deletion";

  /**
   * True when the commit failed because of a concurrent commit: DuckLake's conflict check refused
   * it, or DuckDB found a concurrent change to the same metadata row. Any other failure (a
   * constraint, an I/O error, a retry budget exhausted without a conflict) is not a conflict.
   */
  public boolean isConflict() {
    if (committed || error == null) {
      return false;
    }
    return error.contains(DUCKLAKE_CONFLICT) || error.contains(METADATA_ROW_CONFLICT);
  }
}
