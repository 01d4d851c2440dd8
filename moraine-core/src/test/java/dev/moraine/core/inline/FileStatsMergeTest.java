package dev.moraine.core.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A file's column statistics merged into a table's, case by case, as stock DuckLake merges them.
 */
class FileStatsMergeTest {
  private static ColumnValue column(String type) {
    return ColumnValue.newBuilder()
        .setTableId(1)
        .setColumnId(1)
        .setColumnName("c")
        .setColumnType(type)
        .setNullsAllowed(true)
        .build();
  }

  private static NewFileColumnStats file(
      long values, long nulls, String min, String max, Boolean nan) {
    return new NewFileColumnStats(
        1,
        100,
        values,
        nulls,
        Optional.ofNullable(min),
        Optional.ofNullable(max),
        Optional.ofNullable(nan),
        Optional.empty());
  }

  private static TableColumnStatsValue merge(
      String type, TableColumnStatsValue before, NewFileColumnStats file) {
    ColumnValue c = column(type);
    return FileStatsMerge.merge(1, c, List.of(c), before, file);
  }

  @Test
  void aFirstFile_givesItsBounds() {
    TableColumnStatsValue s = merge("int64", null, file(10, 0, "3", "9", null));
    assertEquals("3", s.getMinValue());
    assertEquals("9", s.getMaxValue());
    assertFalse(s.getContainsNull());
    assertFalse(s.hasContainsNan());
  }

  @Test
  void integersCompareAsNumbers_textByBytes() {
    TableColumnStatsValue ints = merge("int64", null, file(10, 0, "3", "9", null));
    TableColumnStatsValue wider = merge("int64", ints, file(5, 1, "-20", "10", null));
    assertEquals("-20", wider.getMinValue());
    assertEquals("10", wider.getMaxValue()); // "10" < "9" as text, not as a number
    assertTrue(wider.getContainsNull());

    TableColumnStatsValue text = merge("varchar", null, file(2, 0, "b", "m", null));
    TableColumnStatsValue more = merge("varchar", text, file(2, 0, "a", "ab", null));
    assertEquals("a", more.getMinValue());
    assertEquals("m", more.getMaxValue());
  }

  @Test
  void aFileOfNullsOnly_leavesTheBounds_andARecordOfNullsOnlyTakesTheFilesBounds() {
    TableColumnStatsValue nulls = merge("int32", null, file(0, 4, null, null, null));
    assertFalse(nulls.hasMinValue());
    assertTrue(nulls.getContainsNull());
    TableColumnStatsValue taken = merge("int32", nulls, file(3, 0, "7", "8", null));
    assertEquals("7", taken.getMinValue());
    assertEquals("8", taken.getMaxValue());
    assertTrue(taken.getContainsNull());
    TableColumnStatsValue kept = merge("int32", taken, file(0, 2, null, null, null));
    assertEquals("7", kept.getMinValue());
    assertEquals("8", kept.getMaxValue());
  }

  @Test
  void aBoundTheFileDoesNotGive_becomesUnknown() {
    TableColumnStatsValue s = merge("int64", null, file(10, 0, "3", "9", null));
    TableColumnStatsValue noMax = merge("int64", s, file(10, 0, "1", null, null));
    assertEquals("1", noMax.getMinValue());
    assertFalse(noMax.hasMaxValue());
  }

  @Test
  void nanIsKeptOnceSeen_andUnknownWhenAFileDoesNotSay() {
    TableColumnStatsValue none = merge("float64", null, file(3, 0, "1.0", "2.0", false));
    assertFalse(none.getContainsNan());
    TableColumnStatsValue seen = merge("float64", none, file(3, 0, "0.5", "1.5", true));
    assertTrue(seen.getContainsNan());
    assertEquals("0.5", seen.getMinValue());
    TableColumnStatsValue stillSeen = merge("float64", seen, file(3, 0, "0.7", "1.5", false));
    assertTrue(stillSeen.getContainsNan());
    TableColumnStatsValue unknown = merge("float64", stillSeen, file(3, 0, "0.7", "1.5", null));
    assertFalse(unknown.hasContainsNan());
  }
}
