package dev.moraine.duckdb.differential;

import java.util.List;

/**
 * Two overlapping DuckLake transactions on a lake prepared by {@code setup}: both begin, both run
 * their statements, the first commits, then the second tries to commit.
 *
 * @param name what the case exercises
 * @param inliningLimit the lake's DATA_INLINING_ROW_LIMIT (0 writes every insert and delete to
 *     files)
 * @param setup auto-committed statements run before either transaction begins
 * @param first statements of the transaction that commits first
 * @param second statements of the transaction that commits second
 * @param secondConflicts what stock DuckLake 1.5.5 does with the second commit: true when it fails
 *     with a conflict, false when it lands
 * @param secondLate when true the second transaction only reads the lake (which fixes its snapshot)
 *     before the first commits, and runs its statements afterwards; for statements that take row
 *     locks in the metadata catalog while they run
 */
record ConflictCase(
    String name,
    long inliningLimit,
    List<String> setup,
    List<String> first,
    List<String> second,
    boolean secondConflicts,
    boolean secondLate) {

  ConflictCase(
      String name,
      long inliningLimit,
      List<String> setup,
      List<String> first,
      List<String> second,
      boolean secondConflicts) {
    this(name, inliningLimit, setup, first, second, secondConflicts, false);
  }

  /** The same case with the second transaction's statements run after the first commits. */
  ConflictCase late() {
    return new ConflictCase(
        name + " (second runs after first commits)",
        inliningLimit,
        setup,
        first,
        second,
        secondConflicts,
        true);
  }

  @Override
  public String toString() {
    return name;
  }
}
