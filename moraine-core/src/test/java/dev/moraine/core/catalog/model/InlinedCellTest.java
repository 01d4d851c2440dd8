package dev.moraine.core.catalog.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/**
 * The typed view of inlined cells from the raw forms Arrow Java hands out, without a store: the
 * unsigned widths, zoned timestamps in every unit, the uuid/varchar split by column type, and the
 * refusals.
 */
class InlinedCellTest {
  private static Field field(String name, ArrowType type, long id) {
    return new Field(
        name, new FieldType(true, type, null, Map.of("PARQUET:field_id", Long.toString(id))), null);
  }

  @Test
  void unsignedCells_readAsTheirUnsignedValue() {
    assertEquals(
        255L, InlinedCell.typed(field("a", new ArrowType.Int(8, false), 1), null, (byte) -1));
    assertEquals(
        65_535L, InlinedCell.typed(field("a", new ArrowType.Int(16, false), 1), null, '\uffff'));
    assertEquals(
        4_294_967_295L, InlinedCell.typed(field("a", new ArrowType.Int(32, false), 1), null, -1));
    assertEquals(
        BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE),
        InlinedCell.typed(field("a", new ArrowType.Int(64, false), 1), null, -1L));
    assertEquals(
        -1L, InlinedCell.typed(field("a", new ArrowType.Int(8, true), 1), null, (byte) -1));
  }

  @Test
  void zonedTimestamps_readAsInstants_inEveryUnit_beforeTheEpochToo() {
    assertEquals(
        Instant.parse("1969-12-31T23:59:59Z"),
        InlinedCell.typed(
            field("t", new ArrowType.Timestamp(TimeUnit.SECOND, "UTC"), 1), null, -1L));
    assertEquals(
        Instant.parse("1969-12-31T23:59:59.999Z"),
        InlinedCell.typed(
            field("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"), 1), null, -1L));
    assertEquals(
        Instant.parse("1969-12-31T23:59:59.999999Z"),
        InlinedCell.typed(
            field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"), 1), null, -1L));
    assertEquals(
        Instant.parse("1969-12-31T23:59:59.999999999Z"),
        InlinedCell.typed(
            field("t", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC"), 1), null, -1L));
  }

  @Test
  void columnTypes_areLookedUpByFieldId_andSplitUuidFromVarchar() {
    List<Field> fields =
        List.of(field("u", ArrowType.Utf8.INSTANCE, 7), field("s", ArrowType.Utf8.INSTANCE, 9));
    String text = "0193a1b2-0000-7000-8000-000000000001";
    InlinedRows rows =
        new InlinedRows(
                1,
                List.of(
                    new InlinedRows.Row(0, 1, 1, List.of("u", "s"), fields, List.of(text, text))))
            .withColumnTypes(Map.of(7L, "uuid", 9L, "varchar"));
    InlinedRows.Row row = rows.rows().get(0);
    assertEquals(List.of("uuid", "varchar"), row.columnTypes());
    assertEquals(List.of(java.util.UUID.fromString(text), text), row.typedValues());
    InlinedRows.Row unknown =
        new InlinedRows.Row(0, 1, 1, List.of("u", "s"), fields, List.of(text, text));
    assertEquals(Arrays.asList(null, null), unknown.columnTypes());
    assertEquals(List.of(text, text), unknown.typedValues());
  }

  @Test
  void aFieldOfANonInlineType_isRefused() {
    Field interval = field("i", new ArrowType.Interval(IntervalUnit.DAY_TIME), 1);
    InlinedRows.Row row =
        new InlinedRows.Row(0, 1, 1, List.of("i"), List.of(interval), List.of(List.of()));
    IllegalStateException e = assertThrows(IllegalStateException.class, row::typedValues);
    assertTrue(e.getMessage().contains("not an inline one"), e.getMessage());
  }

  @Test
  void columnTypes_mustMatchTheFields() {
    Field a = field("a", new ArrowType.Int(32, true), 1);
    assertThrows(
        IllegalArgumentException.class,
        () -> new InlinedRows.Row(0, 1, 1, List.of("a"), List.of(a), List.of(1), List.of()));
  }
}
