package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.conflict.ConflictMatrix;
import dev.moraine.ducklake.conflict.ConflictVerdict;
import dev.moraine.ducklake.conflict.DeleteTargets;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.ConcurrentVerbModelPropertiesTest.Attempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lost races of the inline verbs in {@link ConcurrentVerbModelPropertiesTest}, held against
 * {@code ConflictMatrix} (RFC 0004 §5: an inline delete conflicts with another inline delete, an
 * inlined insert or a flush of the same table; inserts race benignly).
 *
 * <p>What can be checked from outside the commit core without knowing the head it compared against:
 * a run that ended in a conflict lost to commits after its premise no later than the head read just
 * after, so the matrix must find a conflict among them. A run that was re-run lost to the batch
 * right after its premise (every batch writes {@code sys/head}, so that batch alone makes the
 * submission fail) and to whatever landed before the runner read the commits that won. When that
 * batch minted the snapshot right after the premise, the runner's read saw that snapshot, so it
 * must be benign for the run. When it was an options-only batch (it mints no snapshot and never
 * conflicts), the runner may have read no snapshot at all, or some of those that landed after it,
 * and judged the race benign on what it read; the re-run then stands on a newer premise and is
 * judged there afresh. Which snapshots it read is not visible from here, so such a race is only
 * counted.
 */
final class InlineRaceVerdicts {
  private InlineRaceVerdicts() {}

  /**
   * One lost race: a run's intent, its premise (snapshot id and head batch sequence), and either
   * the premise of its re-run (benign) or the head read after its conflict (conflict).
   */
  record Race(long premise, long batch, Intent intent, long until, boolean conflict) {}

  /**
   * Records, for each run of one commit call that was re-run after its submission lost, a benign
   * race. A run whose verb refused (its error is set) and that was re-run because the head had
   * moved meanwhile never staged a change set, so there is nothing for the matrix to judge.
   */
  static void lostRaces(List<Attempt> runs, List<Race> races) {
    for (int r = 0; r + 1 < runs.size(); r++) {
      Attempt run = runs.get(r);
      if (run.error() != null) {
        continue;
      }
      races.add(
          new Race(run.premise(), run.batch(), run.intent(), runs.get(r + 1).premise(), false));
    }
  }

  /** The changes the intent's commit records, if it is an inline verb; else null. */
  static ChangeSet mine(Intent intent) {
    List<ChangeEntry> entries = new ArrayList<>();
    if (intent instanceof Intent.InsertInlined i) {
      entries.add(new ChangeEntry.ById(ChangeKind.INLINED_INSERT, i.tableId()));
    } else if (intent instanceof Intent.DeleteInline i) {
      entries.add(new ChangeEntry.ById(ChangeKind.INLINED_DELETE, i.tableId()));
    } else if (intent instanceof Intent.Flush i) {
      entries.add(new ChangeEntry.ById(ChangeKind.INLINE_FLUSH, i.tableId()));
      if (!i.fileDeletes().isEmpty()) {
        entries.add(new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, i.tableId()));
      }
    } else {
      return null;
    }
    return ChangeSet.of(entries);
  }

  /**
   * Holds each race against the matrix; {@code landed} (each landed commit by snapshot id) tells
   * which batch came right after a race's premise.
   */
  static void check(List<Race> races, Map<Long, Attempt> landed, ReadOnlyCatalog catalog) {
    for (Race race : races) {
      ChangeSet mine = mine(race.intent());
      if (mine == null) {
        continue;
      }
      long last = race.conflict() ? race.until() : race.premise() + 1;
      assertTrue(last > race.premise(), race + ": a lost race lost to some commit");
      Attempt next = landed.get(race.premise() + 1);
      if (!race.conflict() && (next == null || next.batch() != race.batch())) {
        // The snapshot after the premise (if any) was built on a later batch: an options-only
        // batch came first, and the runner's read of the winners may have held no snapshot.
        net.jqwik.api.statistics.Statistics.label("inline races")
            .collect("benign after an options batch");
        continue;
      }
      List<ChangeSet> since = new ArrayList<>();
      for (long s = race.premise() + 1; s <= last; s++) {
        since.add(ChangesMade.parse(catalog.snapshotAt(s).info().changesMade()));
      }
      net.jqwik.api.statistics.Statistics.label("inline races")
          .collect(race.conflict() ? "conflict" : "benign");
      ConflictVerdict verdict =
          ConflictMatrix.check(mine, ChangeSet.unionOf(since), DeleteTargets.unknown());
      assertTrue(
          race.conflict() ? verdict.isConflict() : verdict.isBenign(),
          race + " against " + since + ": the matrix says " + verdict.describe());
    }
  }
}
