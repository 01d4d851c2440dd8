package dev.moraine.ducklake.conflict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.ducklake.changes.ChangesMade;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rows of the matrix that involve names, schemas, data files and unknown kinds, plus the listed
 * non-conflicts. Columns: this commit's changes_made | concurrent changes_made | expected verdict.
 * Schema facts: schema 1 is "main", schema 2 is "Sales"; delete facts: mine {10, 11}, theirs {11}
 * unless the row says "files-disjoint" (theirs {12}) or "files-unknown".
 */
class ConflictMatrixRowsTest {

  private static final SchemaIdentities SCHEMAS =
      SchemaIdentities.of(Map.of(1L, "main", 2L, "Sales"));

  @ParameterizedTest(name = "[{index}] {0} after {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // created_schema: same name, case-insensitive
        "created_schema:\"s\"|created_schema:\"s\"|CONFLICT|files",
        "created_schema:\"s\"|created_schema:\"S\"|CONFLICT|files",
        "created_schema:\"s\"|created_schema:\"t\"|BENIGN|files",
        "created_schema:\"é\"|created_schema:\"É\"|BENIGN|files",
        // non-conflict: created_schema vs dropped_schema
        "created_schema:\"main\"|dropped_schema:1|BENIGN|files",
        // dropped_schema vs dropped_schema and vs creations in it
        "dropped_schema:2|dropped_schema:2|CONFLICT|files",
        "dropped_schema:2|created_table:\"sales\".\"t\"|CONFLICT|files",
        "dropped_schema:2|created_view:\"SALES\".\"v\"|CONFLICT|files",
        "dropped_schema:2|created_table:\"main\".\"t\"|BENIGN|files",
        "dropped_schema:2|created_scalar_macro:\"Sales\".\"m\"|BENIGN|files",
        "dropped_schema:2|created_table_macro:\"Sales\".\"m\"|BENIGN|files",
        "dropped_schema:2|created_schema:\"Sales\"|BENIGN|files",
        "dropped_schema:9|created_table:\"anything\".\"t\"|CONFLICT|files",
        // created_table / created_view: same schema+name (CI), one namespace
        "created_table:\"main\".\"t\"|created_table:\"main\".\"t\"|CONFLICT|files",
        "created_table:\"main\".\"t\"|created_table:\"MAIN\".\"T\"|CONFLICT|files",
        "created_table:\"main\".\"t\"|created_view:\"main\".\"t\"|CONFLICT|files",
        "created_view:\"main\".\"v\"|created_table:\"main\".\"v\"|CONFLICT|files",
        "created_view:\"main\".\"v\"|created_view:\"main\".\"v\"|CONFLICT|files",
        "created_table:\"main\".\"t\"|created_table:\"Sales\".\"t\"|BENIGN|files",
        "created_table:\"main\".\"t\"|created_scalar_macro:\"main\".\"t\"|BENIGN|files",
        "created_table:\"main\".\"t\"|dropped_schema:1|CONFLICT|files",
        "created_table:\"MAIN\".\"t\"|dropped_schema:1|CONFLICT|files",
        "created_table:\"main\".\"t\"|dropped_schema:2|BENIGN|files",
        "created_view:\"Sales\".\"v\"|dropped_schema:2|CONFLICT|files",
        "'created_schema:\"Sales\",created_table:\"Sales\".\"t\"'|dropped_schema:2|BENIGN|files",
        "created_table:\"unknown\".\"t\"|dropped_schema:2|CONFLICT|files",
        // macros: same kind and name; dropped schema
        "created_scalar_macro:\"main\".\"m\"|created_scalar_macro:\"Main\".\"M\"|CONFLICT|files",
        "created_scalar_macro:\"main\".\"m\"|created_table_macro:\"main\".\"m\"|BENIGN|files",
        "created_table_macro:\"main\".\"m\"|created_table_macro:\"main\".\"m\"|CONFLICT|files",
        "created_table_macro:\"main\".\"m\"|created_table:\"main\".\"m\"|BENIGN|files",
        "created_scalar_macro:\"main\".\"m\"|dropped_schema:1|CONFLICT|files",
        "created_table_macro:\"main\".\"m\"|dropped_schema:1|CONFLICT|files",
        "dropped_scalar_macro:5|dropped_table_macro:5|BENIGN|files",
        // delete vs delete at data-file grain
        "deleted_from_table:3|deleted_from_table:3|CONFLICT|files",
        "deleted_from_table:3|deleted_from_table:3|BENIGN|files-disjoint",
        "deleted_from_table:3|deleted_from_table:3|CONFLICT|files-unknown",
        "deleted_from_table:3|deleted_from_table:4|BENIGN|files",
        "deleted_from_table:3|inlined_delete:3|BENIGN|files",
        // listed non-conflicts
        "inserted_into_table:3|inserted_into_table:3|BENIGN|files",
        "inlined_insert:3|inlined_insert:3|BENIGN|files",
        "inserted_into_table:3|inlined_insert:3|BENIGN|files",
        "dropped_table:3|inserted_into_table:3|BENIGN|files",
        "altered_table:3|inserted_into_table:3|BENIGN|files",
        "altered_table:3|deleted_from_table:3|BENIGN|files",
        "inserted_into_table:3|merge_adjacent:3|BENIGN|files",
        "inserted_into_table:3|rewrite_delete:3|BENIGN|files",
        "inserted_into_table:3|inline_flush:3|BENIGN|files",
        "merge_adjacent:3|inserted_into_table:3|BENIGN|files",
        "inline_flush:3|inserted_into_table:3|BENIGN|files",
        "altered_view:3|dropped_view:3|BENIGN|files",
        "inserted_into_table:3|compacted_table:3|BENIGN|files",
        "deleted_from_table:3|compacted_table:3|BENIGN|files",
        "dropped_table:3|compacted_table:3|BENIGN|files",
        // unknown kinds on either side
        "inserted_into_table:3|frobnicate:3|CONFLICT|files",
        "frobnicate:3|inserted_into_table:4|CONFLICT|files",
        "inserted_into_table:3|'inserted_into_table:9,future_kind:\"x\"'|CONFLICT|files",
      })
  void check_row(String mine, String since, String expected, String facts) {
    DeleteTargets targets =
        switch (facts) {
          case "files" -> DeleteTargets.of(Set.of(10L, 11L), Set.of(11L));
          case "files-disjoint" -> DeleteTargets.of(Set.of(10L, 11L), Set.of(12L));
          default -> DeleteTargets.unknown();
        };
    ConflictVerdict verdict =
        ConflictMatrix.check(ChangesMade.parse(mine), ChangesMade.parse(since), targets, SCHEMAS);
    assertEquals(expected, verdict.isConflict() ? "CONFLICT" : "BENIGN", verdict.describe());
  }

  @ParameterizedTest(name = "[{index}] unknown schemas: {0} after {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "dropped_schema:2|created_table:\"main\".\"t\"|CONFLICT",
        "dropped_schema:2|created_scalar_macro:\"main\".\"t\"|BENIGN",
        "created_table:\"main\".\"t\"|dropped_schema:7|CONFLICT",
        "'created_schema:\"n\",created_table:\"N\".\"t\"'|dropped_schema:7|BENIGN",
        "created_table:\"main\".\"t\"|created_table:\"main\".\"u\"|BENIGN",
      })
  void check_unknownSchemaIdentities_isConservative(String mine, String since, String expected) {
    ConflictVerdict verdict =
        ConflictMatrix.check(
            ChangesMade.parse(mine), ChangesMade.parse(since), DeleteTargets.unknown());
    assertEquals(expected, verdict.isConflict() ? "CONFLICT" : "BENIGN", verdict.describe());
  }
}
