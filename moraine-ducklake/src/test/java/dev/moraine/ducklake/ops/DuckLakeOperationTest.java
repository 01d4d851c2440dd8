package dev.moraine.ducklake.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.ducklake.changes.ChangeKind;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DuckLakeOperationTest {

  /**
   * Columns: operation | schema_version bump | schema_versions row | next_file_id | next_catalog_id
   * | outside the snapshot protocol | kinds (space separated).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CREATE_SCHEMA|Y|N|N|Y|N|created_schema",
        "DROP_SCHEMA|Y|N|N|N|N|dropped_schema",
        "CREATE_TABLE|Y|Y|N|Y|N|created_table",
        "RENAME_TABLE|Y|Y|N|N|N|created_table",
        "DROP_TABLE|Y|N|N|N|N|dropped_table",
        "ADD_COLUMN|Y|Y|N|N|N|altered_table",
        "DROP_COLUMN|Y|Y|N|N|N|altered_table",
        "RENAME_COLUMN|Y|Y|N|N|N|altered_table",
        "CHANGE_COLUMN_TYPE|Y|Y|N|N|N|altered_table",
        "SET_DEFAULT|Y|Y|N|N|N|altered_table",
        "DROP_DEFAULT|Y|Y|N|N|N|altered_table",
        "SET_NOT_NULL|Y|Y|N|N|N|altered_table",
        "DROP_NOT_NULL|Y|Y|N|N|N|altered_table",
        "SET_PARTITIONED_BY|Y|Y|N|Y|N|altered_table",
        "RESET_PARTITIONED_BY|Y|Y|N|Y|N|altered_table",
        "SET_SORTED_BY|Y|N|N|Y|N|altered_table",
        "RESET_SORTED_BY|Y|N|N|N|N|altered_table",
        "COMMENT_ON_TABLE|Y|N|N|N|N|altered_table",
        "COMMENT_ON_COLUMN|Y|N|N|N|N|altered_table",
        "CREATE_VIEW|Y|N|N|Y|N|created_view",
        "RENAME_VIEW|Y|N|N|N|N|created_view",
        "TAG_SCHEMA|Y|N|N|N|N|",
        "CREATE_INDEX|Y|Y|N|Y|N|altered_table",
        "DROP_INDEX|Y|Y|N|N|N|altered_table",
        "COMMENT_ON_VIEW|Y|N|N|N|N|altered_view",
        "DROP_VIEW|Y|N|N|N|N|dropped_view",
        "CREATE_SCALAR_MACRO|Y|N|N|Y|N|created_scalar_macro",
        "CREATE_TABLE_MACRO|Y|N|N|Y|N|created_table_macro",
        "DROP_MACRO|Y|N|N|N|N|dropped_scalar_macro",
        "DROP_TABLE_MACRO|Y|N|N|N|N|dropped_table_macro",
        "INSERT_FILE|N|N|Y|N|N|inserted_into_table",
        "ADD_DATA_FILES|N|N|Y|N|N|inserted_into_table",
        "INLINED_INSERT|N|N|Y|N|N|inlined_insert",
        "INLINED_INSERT_NEW_INLINED_TABLE|Y|N|Y|N|N|inlined_insert",
        "DELETE_FILE|N|N|Y|N|N|deleted_from_table",
        "DELETE_WHOLE_FILE|N|N|N|N|N|deleted_from_table",
        "INLINED_DELETE|N|N|N|N|N|inlined_delete",
        "INLINED_FILE_DELETE|N|N|N|N|N|inlined_delete",
        "UPDATE|N|N|Y|N|N|deleted_from_table inserted_into_table",
        "MERGE_ADJACENT_FILES|N|N|Y|N|N|merge_adjacent",
        "REWRITE_DELETES|N|N|Y|N|N|rewrite_delete",
        "FLUSH_INLINED_DATA|N|N|Y|N|N|inline_flush",
        "SET_OPTION|N|N|N|N|Y|",
        "EXPIRE_SNAPSHOTS|N|N|N|N|Y|",
        "CLEANUP_OLD_FILES|N|N|N|N|Y|",
        "DELETE_ORPHANED_FILES|N|N|N|N|Y|",
      })
  void operation_predictions(
      DuckLakeOperation op,
      String bump,
      String row,
      String fileId,
      String catalogId,
      String outside,
      String kinds) {
    assertEquals(yes(bump), op.bumpsSchemaVersion(), "bump");
    assertEquals(yes(row), op.writesSchemaVersionsRow(), "schema_versions row");
    assertEquals(yes(fileId), op.advancesNextFileId(), "next_file_id");
    assertEquals(yes(catalogId), op.advancesNextCatalogId(), "next_catalog_id");
    assertEquals(yes(outside), op.outsideSnapshotProtocol(), "outside");
    Set<ChangeKind> expected =
        kinds == null
            ? Set.of()
            : Arrays.stream(kinds.split(" "))
                .map(w -> ChangeKind.fromToken(w).orElseThrow())
                .collect(Collectors.toSet());
    assertEquals(expected, op.emittedKinds());
  }

  @Test
  void everyOperation_isCoveredByTheTable() {
    assertEquals(46, DuckLakeOperation.values().length);
  }

  @Test
  void everyEmittableKind_isEmittedBySomeOperation() {
    EnumSet<ChangeKind> emitted = EnumSet.noneOf(ChangeKind.class);
    for (DuckLakeOperation op : DuckLakeOperation.values()) {
      emitted.addAll(op.emittedKinds());
    }
    for (ChangeKind k : ChangeKind.values()) {
      assertEquals(k.emittable(), emitted.contains(k), k.toString());
    }
  }

  @Test
  void shape_catalogChangesBumpOnce() {
    CommitShape shape =
        CommitShape.of(
            DuckLakeOperation.CREATE_TABLE,
            DuckLakeOperation.ADD_COLUMN,
            DuckLakeOperation.COMMENT_ON_VIEW,
            DuckLakeOperation.INSERT_FILE);
    assertEquals(1, shape.schemaVersionIncrement());
    assertTrue(shape.writesSchemaVersionsRow());
    assertTrue(shape.advancesNextFileId());
    assertTrue(shape.advancesNextCatalogId());
    assertTrue(shape.mintsSnapshot());
    assertEquals(
        EnumSet.of(
            ChangeKind.CREATED_TABLE,
            ChangeKind.ALTERED_TABLE,
            ChangeKind.ALTERED_VIEW,
            ChangeKind.INSERTED_INTO_TABLE),
        shape.emittedKinds());
  }

  @Test
  void shape_newInlinedTablesAddOneEach() {
    CommitShape shape =
        CommitShape.of(
            DuckLakeOperation.INLINED_INSERT_NEW_INLINED_TABLE,
            DuckLakeOperation.INLINED_INSERT_NEW_INLINED_TABLE,
            DuckLakeOperation.DROP_VIEW);
    assertEquals(3, shape.schemaVersionIncrement());
    CommitShape dataOnly = CommitShape.of(DuckLakeOperation.INLINED_INSERT_NEW_INLINED_TABLE);
    assertEquals(1, dataOnly.schemaVersionIncrement());
  }

  @Test
  void shape_dataOnly_carriesSchemaVersion() {
    CommitShape shape =
        CommitShape.of(
            DuckLakeOperation.INSERT_FILE,
            DuckLakeOperation.DELETE_FILE,
            DuckLakeOperation.INLINED_DELETE,
            DuckLakeOperation.FLUSH_INLINED_DATA);
    assertFalse(shape.bumpsSchemaVersion());
    assertFalse(shape.writesSchemaVersionsRow());
    assertFalse(shape.advancesNextCatalogId());
  }

  @Test
  void shape_compactionIsExclusive() {
    assertThrows(
        IncompatibleOperationsException.class,
        () ->
            CommitShape.of(DuckLakeOperation.MERGE_ADJACENT_FILES, DuckLakeOperation.INSERT_FILE));
    CommitShape ok =
        CommitShape.of(DuckLakeOperation.MERGE_ADJACENT_FILES, DuckLakeOperation.REWRITE_DELETES);
    assertEquals(
        EnumSet.of(ChangeKind.MERGE_ADJACENT, ChangeKind.REWRITE_DELETE), ok.emittedKinds());
  }

  @Test
  void shape_outsideProtocol_mintsNothingAndDoesNotMix() {
    assertFalse(CommitShape.of(DuckLakeOperation.SET_OPTION).mintsSnapshot());
    assertFalse(CommitShape.of().mintsSnapshot());
    assertThrows(
        IncompatibleOperationsException.class,
        () -> CommitShape.of(DuckLakeOperation.SET_OPTION, DuckLakeOperation.CREATE_TABLE));
  }

  private static boolean yes(String flag) {
    return flag.equals("Y");
  }
}
