package dev.moraine.ducklake.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ChangesMadeEmitTest {

  @Test
  void emit_emptySet_isNull() {
    assertNull(ChangesMade.emit(ChangeSet.empty()));
  }

  @Test
  void emit_freshCatalog_matchesDuckLake() {
    assertEquals(
        "created_schema:\"main\"",
        ChangesMade.emit(ChangeSet.of(ChangeEntry.createdSchema("main"))));
  }

  @Test
  void emit_namesSortByUtf8BytesNotByUtf16CodeUnits() {
    // U+FF21 (FULLWIDTH A, UTF-8 EF BC A1) sorts before U+1F600 (UTF-8 F0 9F 98 80), although its
    // UTF-16 code unit 0xFF21 is above the surrogate 0xD83D that String.compareTo would compare.
    String fullwidth = "\uFF21";
    String emoji = new String(Character.toChars(0x1F600));
    ChangeSet set =
        ChangeSet.of(ChangeEntry.createdSchema(emoji), ChangeEntry.createdSchema(fullwidth));
    assertEquals(
        "created_schema:\"" + fullwidth + "\",created_schema:\"" + emoji + "\"",
        ChangesMade.emit(set));
    assertEquals(-1, Integer.signum(WriterOrder.byCodePoint("a", "ab")));
    assertEquals(0, WriterOrder.byCodePoint(emoji, emoji));
  }

  @Test
  void emit_createdTableWithData_putsCreationBeforeData() {
    ChangeSet set =
        ChangeSet.of(ChangeEntry.insertedIntoTable(1), ChangeEntry.createdTable("main", "t"));
    assertEquals("created_table:\"main\".\"t\",inserted_into_table:1", ChangesMade.emit(set));
  }

  @Test
  void emit_everyKind_inWriterOrder() {
    ChangeSet set =
        ChangeSet.of(
            ChangeEntry.inlineFlush(15),
            ChangeEntry.inlinedDelete(14),
            ChangeEntry.inlinedInsert(13),
            ChangeEntry.alteredView(12),
            ChangeEntry.alteredTable(11),
            ChangeEntry.deletedFromTable(10),
            ChangeEntry.insertedIntoTable(9),
            ChangeEntry.ofId(ChangeKind.DROPPED_TABLE_MACRO, 8),
            ChangeEntry.ofId(ChangeKind.DROPPED_SCALAR_MACRO, 7),
            ChangeEntry.createdTableMacro("s", "tm"),
            ChangeEntry.createdScalarMacro("s", "sm"),
            ChangeEntry.createdView("s", "v"),
            ChangeEntry.createdTable("s", "t"),
            ChangeEntry.createdSchema("s"),
            ChangeEntry.droppedView(3),
            ChangeEntry.droppedTable(2),
            ChangeEntry.droppedSchema(1));
    assertEquals(
        "dropped_schema:1,dropped_table:2,dropped_view:3,created_schema:\"s\","
            + "created_table:\"s\".\"t\",created_view:\"s\".\"v\","
            + "created_scalar_macro:\"s\".\"sm\",created_table_macro:\"s\".\"tm\","
            + "dropped_scalar_macro:7,dropped_table_macro:8,inserted_into_table:9,"
            + "deleted_from_table:10,altered_table:11,altered_view:12,inlined_insert:13,"
            + "inlined_delete:14,inline_flush:15",
        ChangesMade.emit(set));
  }

  @Test
  void emit_compactionKinds_lastInOrder() {
    ChangeSet set = ChangeSet.of(ChangeEntry.rewriteDelete(1), ChangeEntry.mergeAdjacent(2));
    assertEquals("merge_adjacent:2,rewrite_delete:1", ChangesMade.emit(set));
  }

  @Test
  void emit_idsAscendingWithinGroup_numericNotTextual() {
    ChangeSet set =
        ChangeSet.of(
            ChangeEntry.insertedIntoTable(10),
            ChangeEntry.insertedIntoTable(9),
            ChangeEntry.insertedIntoTable(100),
            ChangeEntry.deletedFromTable(3));
    assertEquals(
        "inserted_into_table:9,inserted_into_table:10,inserted_into_table:100,deleted_from_table:3",
        ChangesMade.emit(set));
  }

  @Test
  void emit_tablesAndViewsShareOneGroup_sortedBySchemaThenName() {
    ChangeSet set =
        ChangeSet.of(
            ChangeEntry.createdTable("b", "x"),
            ChangeEntry.createdView("a", "z"),
            ChangeEntry.createdTable("a", "y"));
    assertEquals(
        "created_table:\"a\".\"y\",created_view:\"a\".\"z\",created_table:\"b\".\"x\"",
        ChangesMade.emit(set));
  }

  @Test
  void emit_embeddedQuotes_doubled() {
    ChangeSet set = ChangeSet.of(ChangeEntry.createdTable("my \"s\"", "a,b:c.d"));
    assertEquals("created_table:\"my \"\"s\"\"\".\"a,b:c.d\"", ChangesMade.emit(set));
  }

  @Test
  void emit_unsignedIdAboveLongMax_printedUnsigned() {
    assertEquals(
        "dropped_table:18446744073709551615",
        ChangesMade.emit(ChangeSet.of(ChangeEntry.droppedTable(-1L))));
  }

  @Test
  void emit_duplicateEntries_collapse() {
    ChangeSet set =
        ChangeSet.of(ChangeEntry.insertedIntoTable(4), ChangeEntry.insertedIntoTable(4));
    assertEquals("inserted_into_table:4", ChangesMade.emit(set));
  }

  @Test
  void emit_legacyOrUnclassifiable_refused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ChangesMade.emit(ChangeSet.of(ChangeEntry.ofId(ChangeKind.COMPACTED_TABLE, 1))));
    assertThrows(
        IllegalArgumentException.class,
        () -> ChangesMade.emit(ChangeSet.of(new ChangeEntry.Unclassifiable("frob", "1"))));
  }

  @Test
  void entry_wrongShapeForKind_refused() {
    assertThrows(
        IllegalArgumentException.class, () -> new ChangeEntry.ById(ChangeKind.CREATED_TABLE, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ChangeEntry.ByQualifiedName(ChangeKind.DROPPED_TABLE, "s", "t"));
  }
}
