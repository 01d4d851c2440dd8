package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlinedRows;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Inlined rows read back typed on real SlateDB: {@code insertInlined(rows)} then {@code
 * inlinedRows(t).rows().get(i).typedValues()} gives values equal to the ones inlined, for every
 * inlinable type and its edge values, while {@code values()} keeps Arrow Java's forms.
 */
class InlineTypedReadsTest {
  /** One column per inlinable type, ids 1 to 24 in this order. */
  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("b", "boolean"),
          ColumnDef.of("i8", "int8"),
          ColumnDef.of("i16", "int16"),
          ColumnDef.of("i32", "int32"),
          ColumnDef.of("i64", "int64"),
          ColumnDef.of("u8", "uint8"),
          ColumnDef.of("u16", "uint16"),
          ColumnDef.of("u32", "uint32"),
          ColumnDef.of("u64", "uint64"),
          ColumnDef.of("f32", "float32"),
          ColumnDef.of("f64", "float64"),
          ColumnDef.of("s", "varchar"),
          ColumnDef.of("bl", "blob"),
          ColumnDef.of("d38", "decimal(38,10)"),
          ColumnDef.of("d4", "decimal(4,1)"),
          ColumnDef.of("d18", "decimal(18,0)"),
          ColumnDef.of("dt", "date"),
          ColumnDef.of("tm", "time"),
          ColumnDef.of("ts", "timestamp"),
          ColumnDef.of("ts_s", "timestamp_s"),
          ColumnDef.of("ts_ms", "timestamp_ms"),
          ColumnDef.of("ts_ns", "timestamp_ns"),
          ColumnDef.of("tsz", "timestamptz"),
          ColumnDef.of("u", "uuid"));

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** The least values of each type (a float's least finite magnitude, the earliest instants). */
  private static List<Object> low() {
    return row(
        false,
        -128L,
        (long) Short.MIN_VALUE,
        (long) Integer.MIN_VALUE,
        Long.MIN_VALUE,
        0L,
        0L,
        0L,
        BigInteger.ZERO,
        -Float.MAX_VALUE,
        Double.MIN_VALUE,
        "",
        new byte[0],
        new BigDecimal("-9999999999999999999999999999.9999999999"),
        new BigDecimal("-999.9"),
        new BigDecimal("-999999999999999999"),
        LocalDate.of(1, 1, 1),
        LocalTime.MIDNIGHT,
        LocalDateTime.of(1, 1, 1, 0, 0),
        LocalDateTime.of(1, 1, 1, 0, 0),
        LocalDateTime.of(1, 1, 1, 0, 0, 0, 1_000_000),
        LocalDateTime.of(1677, 9, 22, 0, 0),
        Instant.parse("0001-01-01T00:00:00Z"),
        new UUID(0L, 0L));
  }

  /** The greatest values of each type. */
  private static List<Object> high() {
    return row(
        true,
        127L,
        (long) Short.MAX_VALUE,
        (long) Integer.MAX_VALUE,
        Long.MAX_VALUE,
        255L,
        65_535L,
        4_294_967_295L,
        U64_MAX,
        Float.MAX_VALUE,
        Double.MAX_VALUE,
        "héllo, wörld ✓",
        new byte[] {(byte) 0xff, 0, 0x7f, (byte) 0x80},
        new BigDecimal("9999999999999999999999999999.9999999999"),
        new BigDecimal("999.9"),
        new BigDecimal("999999999999999999"),
        LocalDate.of(9999, 12, 31),
        LocalTime.of(23, 59, 59, 999_999_000),
        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
        LocalDateTime.of(9999, 12, 31, 23, 59, 59),
        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000),
        LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_806),
        Instant.parse("9999-12-31T23:59:59.999999Z"),
        new UUID(-1L, -1L));
  }

  /** Values between: negative fractions, pre-epoch instants, NaN and infinities, small scales. */
  private static List<Object> middle() {
    return row(
        true,
        -1L,
        0L,
        1L,
        -1L,
        128L,
        32_768L,
        2_147_483_648L,
        BigInteger.ONE.shiftLeft(63),
        Float.NaN,
        Double.NEGATIVE_INFINITY,
        "x",
        new byte[] {0},
        new BigDecimal("-0.0000000001"),
        new BigDecimal("-0.1"),
        BigDecimal.ZERO,
        LocalDate.of(1969, 12, 31),
        LocalTime.of(0, 0, 0, 1_000),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
        Instant.parse("1969-12-31T23:59:59.999999Z"),
        UUID.fromString("0193a1b2-0000-7000-8000-000000000001"));
  }

  /** Infinities the other way round, so both signs of each float width are read back. */
  private static List<Object> infinities() {
    List<Object> r = middle();
    r.set(9, Float.POSITIVE_INFINITY);
    r.set(10, Double.NaN);
    return r;
  }

  private static List<Object> nulls() {
    return new ArrayList<>(Arrays.asList(new Object[COLUMNS.size()]));
  }

  /** Asserts {@code actual} equals {@code expected} cell by cell, byte arrays by content. */
  private static void assertCells(List<Object> expected, List<Object> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int c = 0; c < expected.size(); c++) {
      Object e = expected.get(c), a = actual.get(c);
      String where = what + ", column " + COLUMNS.get(c).name();
      if (e instanceof byte[] bytes) {
        assertArrayEquals(bytes, assertInstanceOf(byte[].class, a, where), where);
      } else if (e == null) {
        assertNull(a, where);
      } else {
        assertEquals(e.getClass(), a.getClass(), where);
        assertEquals(e, a, where);
      }
    }
  }

  @Test
  void everyInlinableType_readsBackTyped_equalToWhatWasInlined() {
    List<List<Object>> rows = List.of(low(), high(), middle(), infinities(), nulls());
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      lake.catalog.commit(tx -> tx.insertInlined(1, rows));
      List<InlinedRows.Row> read = lake.catalog.snapshot().inlinedRows(1).rows();
      assertEquals(rows.size(), read.size());
      for (int r = 0; r < rows.size(); r++) {
        assertCells(rows.get(r), read.get(r).typedValues(), "row " + r);
      }
    }
  }

  @Test
  void aDecimalReadsBackAtTheColumnsScale_andIntegersAsTheInsertVerbNormalizesThem() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      List<Object> given = middle();
      given.set(1, (byte) -1); // a Byte for int8
      given.set(3, 1); // an Integer for int32
      given.set(8, 5L); // a Long for uint64
      given.set(14, new BigDecimal("-0.10")); // more trailing zeros than the scale
      given.set(15, new BigDecimal("7")); // scale 0 given as is
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(given)));
      List<Object> typed = lake.catalog.snapshot().inlinedRows(1).rows().get(0).typedValues();
      assertEquals(-1L, typed.get(1));
      assertEquals(1L, typed.get(3));
      assertEquals(BigInteger.valueOf(5), typed.get(8));
      BigDecimal d4 = (BigDecimal) typed.get(14);
      assertEquals(1, d4.scale());
      assertEquals(new BigDecimal("-0.1"), d4);
      BigDecimal d38 = (BigDecimal) typed.get(13);
      assertEquals(10, d38.scale());
      assertEquals(new BigDecimal("-0.0000000001"), d38);
    }
  }

  @Test
  void rawValuesKeepArrowJavasForms_besideTheTypedOnes() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(high())));
      InlinedRows.Row row = lake.catalog.snapshot().inlinedRows(1).rows().get(0);
      List<Object> raw = row.values();
      assertEquals((byte) -1, raw.get(5), "uint8 255 as the signed value of its bits");
      assertEquals(-1L, raw.get(8), "uint64 max as the signed value of its bits");
      assertEquals((int) LocalDate.of(9999, 12, 31).toEpochDay(), raw.get(16));
      assertEquals(LocalTime.of(23, 59, 59, 999_999_000).toNanoOfDay() / 1000, raw.get(17));
      assertEquals(253_402_300_799_999_999L, raw.get(22));
      assertEquals("ffffffff-ffff-ffff-ffff-ffffffffffff", raw.get(23));
      assertEquals("uuid", row.columnTypes().get(23));
      assertEquals("varchar", row.columnTypes().get(11));
    }
  }

  /**
   * Time travel reads typed too: a uuid column dropped since keeps its type at the snapshots that
   * had it; at the head, where the table no longer has the column, the older rows' cells in it read
   * as their text.
   */
  @Test
  void aDroppedUuidColumn_readsTypedWhereItExisted_andAsTextAfter() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0, "v", List.of(ColumnDef.of("id", "int32"), ColumnDef.of("u", "uuid"))));
      UUID u = UUID.fromString("0193a1b2-0000-7000-8000-000000000002");
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(7L, u))));
      long before = lake.catalog.snapshot().snapshotId();
      lake.catalog.commit(tx -> tx.dropColumn(1, 2));
      CatalogSnapshot old = lake.catalog.snapshotAt(before);
      assertEquals(List.of(7L, u), old.inlinedRows(1).rows().get(0).typedValues());
      InlinedRows.Row now = lake.catalog.snapshot().inlinedRows(1).rows().get(0);
      assertNull(now.columnTypes().get(1));
      assertEquals(List.of(7L, u.toString()), now.typedValues());
    }
  }
}
