package dev.moraine.duckdb.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.reference.ReferenceSnapshot;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.conflict.ConflictMatrix;
import dev.moraine.ducklake.conflict.ConflictVerdict;
import dev.moraine.ducklake.conflict.DeleteTargets;
import dev.moraine.ducklake.conflict.ProvisionalIds;
import dev.moraine.ducklake.conflict.SchemaIdentities;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs pairs of overlapping transactions on stock DuckLake and checks that the second commit lands
 * exactly when {@link ConflictMatrix} calls the pair benign.
 *
 * <p>Each case runs twice from the same setup. In the concurrent run, two sessions begin, run their
 * statements, the first commits and the second tries to; what the first committed is the "since"
 * side. In the solo run, the second transaction runs alone, which shows the change set and delete
 * targets it would have committed (its "mine" side), even when DuckLake refused it in the
 * concurrent run.
 *
 * <p>DuckLake only checks for conflicts on a retry: the first attempt of a commit that lost the
 * race fails on the snapshot primary key and is retried after re-reading what was committed since.
 * So the retry count must be at least 2 (the loop stops once {@code attempt + 1 >= count}); with 0
 * or 1 every concurrent commit fails, conflict or not.
 */
class ConflictDifferentialTest {

  static List<ConflictCase> cases() {
    return ConflictCases.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void secondCommitLandsExactlyWhenTheMatrixSaysBenign(ConflictCase c, @TempDir Path dir)
      throws Exception {
    Concurrent concurrent = runConcurrently(c, dir.resolve("concurrent"));
    Solo solo = runSecondAlone(c, dir.resolve("solo"));

    DeleteTargets facts = DeleteTargets.of(solo.deleteTargets(), concurrent.deletedSincePremise());
    ConflictVerdict verdict =
        ConflictMatrix.check(
            solo.changes(),
            concurrent.since(),
            facts,
            SchemaIdentities.of(solo.schemasAtPremise()),
            ProvisionalIds.from(solo.nextCatalogIdAtPremise()));

    String context =
        "mine="
            + solo.changes()
            + " since="
            + concurrent.since()
            + " facts="
            + facts
            + " verdict="
            + (verdict.isBenign() ? "benign" : verdict.describe())
            + " duckdb="
            + (concurrent.second().committed() ? "landed" : concurrent.second().error());
    System.out.println(c.name() + ": " + context);
    if (!concurrent.second().committed()) {
      assertTrue(
          concurrent.second().isConflict(), "second commit failed for another reason: " + context);
    }
    assertEquals(
        c.secondConflicts(),
        !concurrent.second().committed(),
        "stock DuckLake outcome: " + context);
    assertEquals(
        !concurrent.second().committed(),
        verdict.isConflict(),
        "ConflictMatrix verdict: " + context);
  }

  private record Concurrent(ChangeSet since, Set<Long> deletedSincePremise, CommitOutcome second) {}

  private record Solo(
      ChangeSet changes,
      Set<Long> deleteTargets,
      Map<Long, String> schemasAtPremise,
      long nextCatalogIdAtPremise) {}

  private static ReferenceDuckLake open(ConflictCase c, Path dir) throws SQLException {
    return ReferenceDuckLake.builder(dir)
        .dataInliningRowLimit(c.inliningLimit())
        .maxRetryCount(2)
        .retryWaitMillis(1)
        .open();
  }

  private static Concurrent runConcurrently(ConflictCase c, Path dir) throws SQLException {
    try (ReferenceDuckLake lake = open(c, dir)) {
      lake.executeAll(c.setup());
      long premise = lake.latestSnapshot().snapshotId();
      try (ReferenceSession first = lake.session();
          ReferenceSession second = lake.session()) {
        first.begin();
        second.begin();
        first.executeAll(c.first());
        if (c.secondLate()) {
          second.query("SELECT count(*) FROM snapshots()");
        } else {
          second.executeAll(c.second());
        }
        first.commit();
        long afterFirst = lake.latestSnapshot().snapshotId();
        ChangeSet since = LakeFacts.changesBetween(lake, premise, afterFirst);
        Set<Long> deleted = LakeFacts.filesDeletedOrEndedAfter(lake, premise);
        CommitOutcome outcome =
            c.secondLate() ? runLateAndCommit(second, c.second()) : second.tryCommit();
        return new Concurrent(since, deleted, outcome);
      }
    }
  }

  /**
   * Runs statements after the first transaction committed, then commits. A statement that fails
   * counts as a failed commit: concurrent flushes, for one, collide on the inlined rows in the
   * metadata catalog while the flush statement runs, before DuckLake's own check.
   */
  private static CommitOutcome runLateAndCommit(ReferenceSession session, List<String> statements) {
    try {
      session.executeAll(statements);
    } catch (SQLException e) {
      try {
        session.rollback();
      } catch (SQLException ignored) {
        // DuckDB already ended the transaction.
      }
      return new CommitOutcome(false, e.getMessage());
    }
    return session.tryCommit();
  }

  private static Solo runSecondAlone(ConflictCase c, Path dir) throws SQLException {
    try (ReferenceDuckLake lake = open(c, dir)) {
      lake.executeAll(c.setup());
      ReferenceSnapshot premiseSnapshot = lake.latestSnapshot();
      long premise = premiseSnapshot.snapshotId();
      Map<Long, String> schemas = LakeFacts.schemasAt(lake, premise);
      try (ReferenceSession second = lake.session()) {
        second.begin();
        second.executeAll(c.second());
        second.commit();
      }
      long after = lake.latestSnapshot().snapshotId();
      ChangeSet changes = LakeFacts.changesBetween(lake, premise, after);
      Set<Long> targets = after > premise ? LakeFacts.filesDeletedOrEndedAt(lake, after) : Set.of();
      return new Solo(changes, targets, schemas, premiseSnapshot.nextCatalogId());
    }
  }
}
