package dev.moraine.ducklake.conflict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pair of id-carrying kinds, same id on both sides: the expected verdict comes from the table
 * below, written out independently of the production table.
 */
class ConflictMatrixIdRulesTest {

  /** this commit's kind -> concurrent kinds that conflict on the same id. */
  private static final Map<String, String> EXPECTED =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry("dropped_table", "dropped_table"),
              Map.entry("dropped_view", "dropped_view"),
              Map.entry("dropped_scalar_macro", "dropped_scalar_macro"),
              Map.entry("dropped_table_macro", "dropped_table_macro"),
              Map.entry("dropped_schema", "dropped_schema"),
              Map.entry(
                  "inserted_into_table",
                  "dropped_table altered_table deleted_from_table inlined_delete"),
              Map.entry(
                  "inlined_insert",
                  "dropped_table altered_table deleted_from_table inlined_delete"),
              Map.entry(
                  "deleted_from_table",
                  "dropped_table altered_table merge_adjacent rewrite_delete inserted_into_table inlined_insert"),
              Map.entry(
                  "inlined_delete",
                  "dropped_table altered_table inlined_delete inline_flush inserted_into_table inlined_insert"),
              Map.entry("inline_flush", "dropped_table inlined_delete inline_flush"),
              Map.entry(
                  "merge_adjacent",
                  "dropped_table deleted_from_table merge_adjacent rewrite_delete"),
              Map.entry(
                  "rewrite_delete",
                  "dropped_table deleted_from_table merge_adjacent rewrite_delete"),
              Map.entry("altered_table", "dropped_table altered_table"),
              Map.entry("altered_view", "altered_view"),
              Map.entry("compacted_table", "")));

  static Stream<Arguments> idPairs() {
    List<Arguments> out = new ArrayList<>();
    List<ChangeKind> idKinds =
        Arrays.stream(ChangeKind.values()).filter(ChangeKind::carriesId).toList();
    for (ChangeKind mine : idKinds) {
      for (ChangeKind theirs : idKinds) {
        out.add(Arguments.of(mine, theirs));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} after concurrent {1}")
  @MethodSource("idPairs")
  void check_sameId_followsTable(ChangeKind mine, ChangeKind theirs) {
    boolean expected = Set.of(EXPECTED.get(mine.token()).split(" ")).contains(theirs.token());
    ConflictVerdict verdict =
        ConflictMatrix.check(
            ChangeSet.of(new ChangeEntry.ById(mine, 7)),
            ChangeSet.of(new ChangeEntry.ById(theirs, 7)),
            DeleteTargets.of(Set.of(100L), Set.of(200L)),
            SchemaIdentities.of(Map.of()));
    assertEquals(expected, verdict.isConflict(), verdict.describe());
    if (expected) {
      ConflictCause cause = verdict.causes().get(0);
      assertEquals(mine, cause.mine().kind());
      assertEquals(theirs, cause.theirs().kind());
      assertEquals(ConflictRule.SAME_OBJECT, cause.rule());
      assertTrue(cause.detail().contains("conflict"));
    }
  }

  @ParameterizedTest(name = "{0} after concurrent {1}, other id")
  @MethodSource("idPairs")
  void check_differentIds_neverConflict(ChangeKind mine, ChangeKind theirs) {
    ConflictVerdict verdict =
        ConflictMatrix.check(
            ChangeSet.of(new ChangeEntry.ById(mine, 7)),
            ChangeSet.of(new ChangeEntry.ById(theirs, 8)),
            DeleteTargets.unknown(),
            SchemaIdentities.of(Map.of()));
    assertTrue(verdict.isBenign(), verdict.describe());
  }

  @Test
  void conflictingKinds_matchesExpectedTable() {
    for (ChangeKind k : ChangeKind.values()) {
      if (!k.carriesId()) {
        assertTrue(ConflictMatrix.conflictingKinds(k).isEmpty());
        continue;
      }
      Set<ChangeKind> expected = EnumSet.noneOf(ChangeKind.class);
      for (String word : EXPECTED.get(k.token()).split(" ")) {
        if (!word.isEmpty()) {
          expected.add(ChangeKind.fromToken(word).orElseThrow());
        }
      }
      assertEquals(expected, ConflictMatrix.conflictingKinds(k), k.toString());
    }
  }

  @Test
  void check_isAsymmetric_onlyLaterCommitterChecks() {
    ChangeSet insert = ChangesMade.parse("inserted_into_table:3");
    ChangeSet alter = ChangesMade.parse("altered_table:3");
    assertTrue(ConflictMatrix.check(insert, alter, DeleteTargets.unknown()).isConflict());
    assertTrue(ConflictMatrix.check(alter, insert, DeleteTargets.unknown()).isBenign());
  }

  @Test
  void check_nothingSince_isBenign() {
    ChangeSet mine = ChangesMade.parse("dropped_table:1,frob:2");
    assertTrue(ConflictMatrix.check(mine, ChangeSet.empty(), DeleteTargets.unknown()).isBenign());
  }

  @Test
  void check_collectsEveryCause() {
    ConflictVerdict v =
        ConflictMatrix.check(
            ChangesMade.parse("inserted_into_table:1,inserted_into_table:2"),
            ChangesMade.parse("dropped_table:1,altered_table:1,altered_table:2"),
            DeleteTargets.unknown());
    assertEquals(3, v.causes().size());
  }
}
