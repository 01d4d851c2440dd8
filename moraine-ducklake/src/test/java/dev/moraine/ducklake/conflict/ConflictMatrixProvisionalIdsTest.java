package dev.moraine.ducklake.conflict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.ducklake.changes.ChangesMade;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ids a commit numbered itself are not matched against concurrent entries with the same number.
 * Premise: {@code next_catalog_id} 2, so a new object of either side is numbered 2.
 */
class ConflictMatrixProvisionalIdsTest {

  private static final SchemaIdentities SCHEMAS = SchemaIdentities.of(Map.of(0L, "main"));

  private static ConflictVerdict check(String mine, String since, ProvisionalIds provisional) {
    return ConflictMatrix.check(
        ChangesMade.parse(mine),
        ChangesMade.parse(since),
        DeleteTargets.unknown(),
        SCHEMAS,
        provisional);
  }

  @ParameterizedTest(name = "[{index}] {0} after {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // a table created and then deleted from, against another new table with the same number
        "'created_table:\"main\".\"a\",inserted_into_table:2,deleted_from_table:2'"
            + "|'created_table:\"main\".\"b\",inserted_into_table:2'",
        // created and altered, against another new table that was altered
        "'created_table:\"main\".\"a\",altered_table:2'"
            + "|'created_table:\"main\".\"b\",altered_table:2'",
        // created and inserted into, against another new table that was altered
        "'created_table:\"main\".\"a\",inserted_into_table:2'"
            + "|'created_table:\"main\".\"b\",altered_table:2'",
        // created and dropped in one commit, against another new table dropped likewise
        "'created_table:\"main\".\"a\",dropped_table:2'"
            + "|'created_table:\"main\".\"b\",dropped_table:2'",
        // two new tables each: the second numbers collide too
        "'created_table:\"main\".\"a\",created_table:\"main\".\"c\",deleted_from_table:3'"
            + "|'created_table:\"main\".\"b\",created_table:\"main\".\"d\",inserted_into_table:3'",
      })
  void ownNewObjects_areBenignWithTheirBoundary_andCollideWithout(String mine, String since) {
    assertTrue(check(mine, since, ProvisionalIds.none()).isConflict(), "without the boundary");
    ConflictVerdict verdict = check(mine, since, ProvisionalIds.from(2));
    assertTrue(verdict.isBenign(), verdict.describe());
  }

  @Test
  void anObjectThatExistedAtThePremise_stillConflicts() {
    // Table 1 existed before the premise: its id is real on both sides.
    ConflictVerdict verdict =
        check(
            "created_table:\"main\".\"a\",inserted_into_table:2,deleted_from_table:1",
            "altered_table:1",
            ProvisionalIds.from(2));
    assertTrue(verdict.isConflict(), verdict.describe());
    assertEquals(1, verdict.causes().size(), verdict.describe());
  }

  @Test
  void theSameNewName_stillConflicts() {
    ConflictVerdict verdict =
        check(
            "created_table:\"main\".\"a\",inserted_into_table:2",
            "created_table:\"main\".\"A\",inserted_into_table:2",
            ProvisionalIds.from(2));
    assertTrue(verdict.isConflict(), verdict.describe());
    assertEquals(ConflictRule.SAME_NAME, verdict.causes().get(0).rule());
  }

  @Test
  void contains_comparesUnsigned() {
    ProvisionalIds from = ProvisionalIds.from(2);
    assertFalse(from.contains(1));
    assertTrue(from.contains(2));
    assertTrue(from.contains(-5L)); // 2^64 - 5, far above the boundary
    assertFalse(ProvisionalIds.none().contains(-1L));
    assertFalse(ProvisionalIds.none().contains(0));
  }

  @Test
  void check_refusesANullBoundary() {
    assertThrows(
        NullPointerException.class,
        () ->
            ConflictMatrix.check(
                ChangesMade.parse("inserted_into_table:1"),
                ChangesMade.parse("inserted_into_table:1"),
                DeleteTargets.unknown(),
                SCHEMAS,
                null));
  }
}
