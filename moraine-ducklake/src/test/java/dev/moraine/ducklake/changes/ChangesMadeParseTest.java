package dev.moraine.ducklake.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChangesMadeParseTest {

  @Test
  void parse_nullOrEmpty_isEmptySet() {
    assertEquals(ChangeSet.empty(), ChangesMade.parse(null));
    assertEquals(ChangeSet.empty(), ChangesMade.parse(""));
  }

  @Test
  void parse_kindWord_caseInsensitive() {
    assertEquals(
        ChangeSet.of(ChangeEntry.insertedIntoTable(7)), ChangesMade.parse("INSERTED_into_Table:7"));
  }

  @Test
  void parse_legacyFlushAlias_isInlineFlush() {
    assertEquals(ChangeSet.of(ChangeEntry.inlineFlush(3)), ChangesMade.parse("flushed_inlined:3"));
    assertEquals("inline_flush:3", ChangesMade.emit(ChangesMade.parse("flushed_inlined:3")));
  }

  @Test
  void parse_legacyCompactedTable_kept() {
    ChangeSet set = ChangesMade.parse("compacted_table:5");
    assertEquals(ChangeSet.of(ChangeEntry.ofId(ChangeKind.COMPACTED_TABLE, 5)), set);
  }

  @Test
  void parse_orderIgnored() {
    assertEquals(
        ChangesMade.parse("inserted_into_table:1,created_table:\"main\".\"t\""),
        ChangesMade.parse("created_table:\"main\".\"t\",inserted_into_table:1"));
  }

  @Test
  void parse_quotedNamesWithSeparators() {
    ChangeSet set =
        ChangesMade.parse("created_table:\"a,b\".\"c:\"\"d\"\".e\",created_schema:\"x,y\"");
    assertEquals(
        ChangeSet.of(
            ChangeEntry.createdTable("a,b", "c:\"d\".e"), ChangeEntry.createdSchema("x,y")),
        set);
  }

  @Test
  void parse_trailingComma_accepted() {
    assertEquals(ChangeSet.of(ChangeEntry.droppedTable(2)), ChangesMade.parse("dropped_table:2,"));
  }

  @Test
  void parse_createdSchema_ignoresTextAfterClosingQuote() {
    assertEquals(
        ChangeSet.of(ChangeEntry.createdSchema("a")),
        ChangesMade.parse("created_schema:\"a\"junk"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "inserted_into_table: 12|12",
        "inserted_into_table:+12|12",
        "inserted_into_table:12abc|12",
        "inserted_into_table:007|7",
        "inserted_into_table:18446744073709551615|-1",
        "inserted_into_table:-1|-1",
      })
  void parse_idsWithStrtoullLeniency(String text, long expected) {
    assertEquals(ChangeSet.of(ChangeEntry.insertedIntoTable(expected)), ChangesMade.parse(text));
  }

  @Test
  void parse_unknownKind_isUnclassifiableAndKeepsText() {
    ChangeSet set =
        ChangesMade.parse("inserted_into_table:1,frobnicated_table:\"x,y\",dropped_table:2");
    assertEquals(3, set.size());
    assertTrue(set.contains(new ChangeEntry.Unclassifiable("frobnicated_table", "\"x,y\"")));
    assertTrue(set.hasUnclassifiable());
    assertEquals("frobnicated_table:\"x,y\"", set.ofKind(ChangeKind.UNCLASSIFIABLE).get(0).raw());
  }

  @Test
  void parse_kindRunsToFirstColonAcrossCommas() {
    ChangeSet set = ChangesMade.parse("garbage,inserted_into_table:1");
    assertEquals(
        ChangeSet.of(new ChangeEntry.Unclassifiable("garbage,inserted_into_table", "1")), set);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "inserted_into_table|19",
        "inserted_into_table:|20",
        "inserted_into_table:abc|20",
        "inserted_into_table:1,dropped_table:x|36",
        "inserted_into_table:18446744073709551616|20",
        "created_schema:main|15",
        "created_schema:\"main|20",
        "created_table:\"s\"|17",
        "created_table:\"s\".t|18",
        "created_table:\"s\".\"t\"x|21",
        "created_table:\"s\"\"t\"|20",
        "inserted_into_table:1,,|23",
      })
  void parse_malformed_throwsWithPosition(String text, int position) {
    ChangesMadeParseException e =
        assertThrows(ChangesMadeParseException.class, () -> ChangesMade.parse(text));
    assertEquals(position, e.position(), e.getMessage());
    assertEquals(text, e.text());
  }

  @ParameterizedTest
  @ValueSource(strings = {"frob", "x:1,frob"})
  void parse_unknownKindWithoutColon_isMalformed(String text) {
    assertThrows(ChangesMadeParseException.class, () -> ChangesMade.parse(text));
  }
}
