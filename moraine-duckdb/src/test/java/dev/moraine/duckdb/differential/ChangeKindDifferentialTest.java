package dev.moraine.duckdb.differential;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.reference.ReferenceSnapshot;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.ops.CommitShape;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link ChangeKindScript} on stock DuckLake, one commit per step, and checks each snapshot
 * against our format code:
 *
 * <ul>
 *   <li>the changes_made DuckLake wrote is the one the script documents for that SQL;
 *   <li>it parses with {@link ChangesMade#parse} and re-emits to the same text;
 *   <li>the step's operations, combined by {@link CommitShape}, predict the kinds written and
 *       whether schema_version, next_catalog_id and next_file_id moved and a
 *       ducklake_schema_versions row was written.
 * </ul>
 *
 * The script runs once; each step then becomes one test with every check in it.
 */
class ChangeKindDifferentialTest {

  @TempDir Path dir;

  /** What one step did to the lake. */
  private record Observation(
      ScriptStep step,
      ReferenceSnapshot before,
      List<ReferenceSnapshot> minted,
      List<String> reportedChangeKeys,
      List<Long> snapshotIdsAfter,
      boolean schemaVersionsRowWritten,
      String error) {}

  @TestFactory
  Stream<DynamicTest> everyChangeKindMatchesStockDuckLake() throws SQLException, IOException {
    List<Observation> observations = runScript();
    return observations.stream()
        .map(o -> DynamicTest.dynamicTest(o.step().label(), () -> check(o)));
  }

  private List<Observation> runScript() throws SQLException, IOException {
    List<Observation> out = new ArrayList<>();
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir);
        ReferenceSession session = lake.session()) {
      for (ScriptStep step :
          ChangeKindScript.steps(Files.createDirectories(dir.resolve("outside")))) {
        ReferenceSnapshot before = lake.latestSnapshot();
        String error = null;
        try {
          if (step.statements().size() == 1) {
            session.execute(step.statements().get(0));
          } else {
            session.begin();
            session.executeAll(step.statements());
            session.commit();
          }
        } catch (SQLException e) {
          error = e.getMessage();
          try {
            session.rollback();
          } catch (SQLException ignored) {
            // no transaction open
          }
        }
        List<ReferenceSnapshot> minted = new ArrayList<>();
        List<String> reported = new ArrayList<>();
        List<Long> idsAfter = new ArrayList<>();
        boolean versionsRow = false;
        for (ReferenceSnapshot s : lake.snapshots()) {
          idsAfter.add(s.snapshotId());
          if (s.snapshotId() > before.snapshotId()) {
            minted.add(s);
            reported.addAll(lake.reportedChangeKeys(s.snapshotId()));
            versionsRow |= !lake.rowsBegunAt("ducklake_schema_versions", s.snapshotId()).isEmpty();
          }
        }
        out.add(new Observation(step, before, minted, reported, idsAfter, versionsRow, error));
      }
    }
    return out;
  }

  private static void check(Observation o) {
    ScriptStep step = o.step();
    if (o.error() != null) {
      fail("step failed in DuckDB: " + step.statements() + ": " + o.error());
    }
    if (o.minted().size() > 1) {
      fail("one step minted several snapshots: " + o.minted());
    }
    if (step.operations().contains(DuckLakeOperation.EXPIRE_SNAPSHOTS)) {
      // The call did run: the snapshot it named is gone, the latest one is not.
      assertFalse(o.snapshotIdsAfter().contains(1L), "snapshot 1 expired: " + o.snapshotIdsAfter());
      assertTrue(o.snapshotIdsAfter().contains(o.before().snapshotId()), "latest kept");
    }
    ReferenceSnapshot after = o.minted().isEmpty() ? null : o.minted().get(0);
    CommitShape shape;
    try {
      shape = CommitShape.of(step.operations());
    } catch (RuntimeException e) {
      fail("CommitShape refused " + step.operations() + " for " + step.statements(), e);
      return;
    }
    String written = after == null ? null : after.changesMade();
    if (after == null) {
      assertAll(
          step.label(),
          () -> assertNull(step.changesMade(), "stock DuckLake minted no snapshot"),
          () -> assertEquals(false, shape.mintsSnapshot(), "CommitShape.mintsSnapshot " + shape));
      return;
    }
    ReferenceSnapshot before = o.before();
    List<Executable> checks = new ArrayList<>();
    checks.add(
        () -> assertEquals(step.changesMade(), written, "changes_made stock DuckLake wrote"));
    checks.add(() -> assertRoundTrip(written));
    checks.add(
        () -> assertEquals(true, shape.mintsSnapshot(), "CommitShape.mintsSnapshot " + shape));
    checks.add(
        () ->
            assertEquals(
                kindsReportedByDuckLake(o.reportedChangeKeys()),
                shape.emittedKinds(),
                "CommitShape.emittedKinds "
                    + shape
                    + " (DuckLake reports "
                    + o.reportedChangeKeys()
                    + ")"));
    checks.add(
        () ->
            assertEquals(
                kindsReportedByDuckLake(o.reportedChangeKeys()),
                kindsOf(written),
                "the kinds our parser reads in " + written));
    long svDelta = after.schemaVersion() - before.schemaVersion();
    checks.add(
        () ->
            assertEquals(
                svDelta > 0,
                shape.bumpsSchemaVersion(),
                "CommitShape.bumpsSchemaVersion "
                    + shape
                    + " (schema_version "
                    + before.schemaVersion()
                    + " -> "
                    + after.schemaVersion()
                    + ")"));
    checks.add(
        () ->
            assertEquals(
                svDelta,
                shape.schemaVersionIncrement(),
                "CommitShape.schemaVersionIncrement " + shape));
    checks.add(
        () ->
            assertEquals(
                after.nextFileId() > before.nextFileId(),
                shape.advancesNextFileId(),
                "CommitShape.advancesNextFileId "
                    + shape
                    + " (next_file_id "
                    + before.nextFileId()
                    + " -> "
                    + after.nextFileId()
                    + ")"));
    checks.add(
        () ->
            assertEquals(
                after.nextCatalogId() > before.nextCatalogId(),
                shape.advancesNextCatalogId(),
                "CommitShape.advancesNextCatalogId "
                    + shape
                    + " (next_catalog_id "
                    + before.nextCatalogId()
                    + " -> "
                    + after.nextCatalogId()
                    + ")"));
    checks.add(
        () ->
            assertEquals(
                o.schemaVersionsRowWritten(),
                shape.writesSchemaVersionsRow(),
                "CommitShape.writesSchemaVersionsRow " + shape));
    assertAll(step.label() + " " + step.statements(), checks);
  }

  /**
   * parse then emit gives back DuckLake's text; where DuckLake's name order is a hash order, the
   * same entries.
   */
  private static void assertRoundTrip(String written) {
    ChangeSet parsed = ChangesMade.parse(written);
    String emitted = ChangesMade.emit(parsed);
    if (hasSeveralNamesInOneGroup(parsed)) {
      assertEquals(parsed, ChangesMade.parse(emitted), "re-emitted entries");
    } else {
      assertEquals(written, emitted, "re-emitted text");
    }
  }

  private static boolean hasSeveralNamesInOneGroup(ChangeSet set) {
    Map<Integer, Integer> namesPerGroup = new HashMap<>();
    for (ChangeEntry e : set.entries()) {
      if (!e.kind().carriesId()) {
        namesPerGroup.merge(e.kind().writerRank(), 1, Integer::sum);
      }
    }
    return namesPerGroup.values().stream().anyMatch(n -> n > 1);
  }

  /**
   * The change-set names of DuckLake's {@code ducklake_snapshots()} function, and the kinds they
   * stand for. DuckLake parses its own changes_made to fill that map, so these kinds come from
   * DuckLake, not from our parser. (DuckLake 1.5 leaves {@code compacted_table} out of the map; no
   * statement of the script writes it.)
   */
  private static final Map<String, ChangeKind> DUCKLAKE_CHANGE_KEYS =
      Map.ofEntries(
          Map.entry("schemas_created", ChangeKind.CREATED_SCHEMA),
          Map.entry("schemas_dropped", ChangeKind.DROPPED_SCHEMA),
          Map.entry("tables_created", ChangeKind.CREATED_TABLE),
          Map.entry("tables_dropped", ChangeKind.DROPPED_TABLE),
          Map.entry("tables_altered", ChangeKind.ALTERED_TABLE),
          Map.entry("tables_inserted_into", ChangeKind.INSERTED_INTO_TABLE),
          Map.entry("tables_deleted_from", ChangeKind.DELETED_FROM_TABLE),
          Map.entry("views_created", ChangeKind.CREATED_VIEW),
          Map.entry("views_dropped", ChangeKind.DROPPED_VIEW),
          Map.entry("views_altered", ChangeKind.ALTERED_VIEW),
          Map.entry("scalar_macros_created", ChangeKind.CREATED_SCALAR_MACRO),
          Map.entry("scalar_macros_dropped", ChangeKind.DROPPED_SCALAR_MACRO),
          Map.entry("table_macros_created", ChangeKind.CREATED_TABLE_MACRO),
          Map.entry("table_macros_dropped", ChangeKind.DROPPED_TABLE_MACRO),
          Map.entry("inlined_insert", ChangeKind.INLINED_INSERT),
          Map.entry("inlined_delete", ChangeKind.INLINED_DELETE),
          Map.entry("flushed_inlined", ChangeKind.INLINE_FLUSH),
          Map.entry("merge_adjacent", ChangeKind.MERGE_ADJACENT),
          Map.entry("rewrite_delete", ChangeKind.REWRITE_DELETE));

  private static Set<ChangeKind> kindsReportedByDuckLake(List<String> keys) {
    EnumSet<ChangeKind> kinds = EnumSet.noneOf(ChangeKind.class);
    for (String key : keys) {
      ChangeKind kind = DUCKLAKE_CHANGE_KEYS.get(key);
      if (kind == null) {
        fail("DuckLake reports a change-set name this test does not know: " + key);
      }
      kinds.add(kind);
    }
    return kinds;
  }

  private static Set<ChangeKind> kindsOf(String written) {
    EnumSet<ChangeKind> kinds = EnumSet.noneOf(ChangeKind.class);
    for (ChangeEntry e : ChangesMade.parse(written).entries()) {
      kinds.add(e.kind());
    }
    return kinds;
  }
}
