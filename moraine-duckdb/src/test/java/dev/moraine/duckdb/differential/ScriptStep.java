package dev.moraine.duckdb.differential;

import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;

/**
 * One commit of the change-kind script: statements run in one transaction, what stock DuckLake
 * writes for it, and the operations it consists of in our classification.
 *
 * @param label what the step does
 * @param statements SQL run in one transaction (auto-committed when there is one statement)
 * @param changesMade the changes_made DuckLake 1.5.5 writes, or null when the step mints no
 *     snapshot
 * @param operations the step in terms of {@link DuckLakeOperation}, one entry per affected object
 */
record ScriptStep(
    String label, List<String> statements, String changesMade, List<DuckLakeOperation> operations) {

  @Override
  public String toString() {
    return label;
  }
}
