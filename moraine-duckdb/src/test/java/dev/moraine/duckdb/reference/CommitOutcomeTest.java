package dev.moraine.duckdb.reference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which failed commits count as conflicts: DuckLake's own texts, nothing looser. */
class CommitOutcomeTest {

  @Test
  void duckLakesConflictText_isAConflict() {
    assertTrue(
        CommitOutcome.failed(
                "TransactionContext Error: Failed to commit: Failed to commit DuckLake transaction.\n"
                    + "Exceeded the maximum retry count of 2 set by the ducklake_max_retry_count"
                    + " setting.\n"
                    + "Transaction conflict - attempting to alter table with index \"1\" - but"
                    + " another transaction has altered it")
            .isConflict());
  }

  @Test
  void aConcurrentDeleteOfTheSameMetadataRow_isAConflict() {
    assertTrue(
        CommitOutcome.failed(
                "TransactionContext Error: Failed to delete flushed inlined data in DuckLake from"
                    + " table ducklake_inlined_data_1_1: Conflict on tuple deletion!")
            .isConflict());
  }

  @Test
  void aConstraintFailure_isNotAConflict() {
    assertFalse(
        CommitOutcome.failed(
                "Constraint Error: Duplicate key \"snapshot_id: 3\" violates primary key constraint.")
            .isConflict());
    assertFalse(
        CommitOutcome.failed("Constraint Error: violates unique constraint on column name")
            .isConflict());
    assertFalse(
        CommitOutcome.failed("IO Error: could not write file: concurrent access denied")
            .isConflict());
  }

  @Test
  void aLandedCommit_isNotAConflict() {
    assertFalse(CommitOutcome.landed().isConflict());
  }
}
