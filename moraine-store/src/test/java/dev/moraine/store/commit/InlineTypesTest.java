package dev.moraine.store.commit;

import static dev.moraine.store.commit.InlineColumnFacts.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.InlinedRows;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

/**
 * Inlined decimals, dates, times, timestamps of every precision, uuids and blobs on real SlateDB:
 * the Arrow fields their chunks carry, the values read back, the column statistics (the texts stock
 * DuckLake 1.5.5 records for the same INSERT with DATA_INLINING_ROW_LIMIT 10, taken from its
 * catalog), and the typed refusals of values that do not fit, which write nothing.
 */
class InlineTypesTest {
  /** The columns of table 1, ids 1 to 13 in this order, and their types. */
  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("d", "decimal(9,2)"),
          ColumnDef.of("e", "decimal(18,3)"),
          ColumnDef.of("f", "decimal(38,10)"),
          ColumnDef.of("g", "decimal(4,1)"),
          ColumnDef.of("dt", "date"),
          ColumnDef.of("tm", "time"),
          ColumnDef.of("ts", "timestamp"),
          ColumnDef.of("tsz", "timestamptz"),
          ColumnDef.of("ts_s", "timestamp_s"),
          ColumnDef.of("ts_ms", "timestamp_ms"),
          ColumnDef.of("ts_ns", "timestamp_ns"),
          ColumnDef.of("u", "uuid"),
          ColumnDef.of("bl", "blob"));

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  /**
   * The two rows of the INSERT the expected statistics come from: {@code (1234567.89, -12.345,
   * 12345678901234567890.0123456789, 99.9, DATE '2024-02-29', TIME '13:45:01.123456', TIMESTAMP
   * '2024-02-29 13:45:01.123456', TIMESTAMPTZ '2024-02-29 13:45:01.123456+00', TIMESTAMP_S
   * '2024-01-01 00:00:01', TIMESTAMP_MS '2024-01-01 00:00:01.123', TIMESTAMP_NS '2024-01-01
   * 00:00:01.123456789', '0193a1b2-0000-7000-8000-000000000001', '\xAA\x00'::BLOB), (-0.01, 5,
   * NULL, -99.9, DATE '1970-01-01', TIME '00:00:00', TIMESTAMP '1969-12-31 23:59:59.999999', NULL,
   * NULL, NULL, NULL, 'ffffffff-ffff-ffff-ffff-ffffffffffff', ''::BLOB)}.
   */
  static List<List<Object>> stockRows() {
    return List.of(
        row(
            new BigDecimal("1234567.89"),
            new BigDecimal("-12.345"),
            new BigDecimal("12345678901234567890.0123456789"),
            new BigDecimal("99.9"),
            LocalDate.of(2024, 2, 29),
            LocalTime.of(13, 45, 1, 123_456_000),
            LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_456_000),
            Instant.parse("2024-02-29T13:45:01.123456Z"),
            LocalDateTime.of(2024, 1, 1, 0, 0, 1),
            LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_000_000),
            LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_456_789),
            UUID.fromString("0193a1b2-0000-7000-8000-000000000001"),
            bytes(0xaa, 0x00)),
        row(
            new BigDecimal("-0.01"),
            5L,
            null,
            new BigDecimal("-99.9"),
            LocalDate.of(1970, 1, 1),
            LocalTime.MIDNIGHT,
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
            null,
            null,
            null,
            null,
            UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
            new byte[0]));
  }

  /** The second row with the integer 5 as the decimal it stands for in SQL. */
  private static List<List<Object>> rowsToInsert() {
    List<List<Object>> rows = new ArrayList<>(stockRows());
    List<Object> second = new ArrayList<>(rows.get(1));
    second.set(1, new BigDecimal("5"));
    rows.set(1, second);
    return rows;
  }

  /** min and max of columns 1 to 13 as stock DuckLake recorded them, "null" when it has none. */
  static final List<String> STOCK_STATS =
      List.of(
          "false -0.01 1234567.89",
          "false -12.345 5.000",
          "true 12345678901234567890.0123456789 12345678901234567890.0123456789",
          "false -99.9 99.9",
          "false 1970-01-01 2024-02-29",
          "false 00:00:00 13:45:01.123456",
          "false 1969-12-31 23:59:59.999999 2024-02-29 13:45:01.123456",
          "true 2024-02-29 13:45:01.123456+00 2024-02-29 13:45:01.123456+00",
          "true 2024-01-01 00:00:01 2024-01-01 00:00:01",
          "true 2024-01-01 00:00:01.123 2024-01-01 00:00:01.123",
          "true 2024-01-01 00:00:01.123456789 2024-01-01 00:00:01.123456789",
          "false 0193a1b2-0000-7000-8000-000000000001 ffffffff-ffff-ffff-ffff-ffffffffffff",
          "false  \\xAA\\x00");

  private static List<String> stats(CatalogSnapshot s, long tableId) {
    return s.columnStats(tableId).stream().map(InlineTypesTest::stat).toList();
  }

  private static String stat(ColumnStats c) {
    return c.containsNull().map(String::valueOf).orElse("null")
        + " "
        + c.minValue().orElse("null")
        + " "
        + c.maxValue().orElse("null");
  }

  @Test
  void everyNewType_isInlined_withStockDuckLakesStatistics() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      assertEquals(2, lake.catalog.commit(tx -> tx.insertInlined(1, rowsToInsert())));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(STOCK_STATS, stats(head, 1));
      assertEquals("inlined_insert:1", head.snapshotLog().get(2).changesMade());

      List<InlinedRows.Row> rows = head.inlinedRows(1).rows();
      assertEquals(2, rows.size());
      List<ArrowType> types = rows.get(0).fields().stream().map(f -> f.getType()).toList();
      assertEquals(
          List.of(
              new ArrowType.Decimal(9, 2, 128),
              new ArrowType.Decimal(18, 3, 128),
              new ArrowType.Decimal(38, 10, 128),
              new ArrowType.Decimal(4, 1, 128),
              new ArrowType.Date(DateUnit.DAY),
              new ArrowType.Time(TimeUnit.MICROSECOND, 64),
              new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
              new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
              new ArrowType.Timestamp(TimeUnit.SECOND, null),
              new ArrowType.Timestamp(TimeUnit.MILLISECOND, null),
              new ArrowType.Timestamp(TimeUnit.NANOSECOND, null),
              ArrowType.Utf8.INSTANCE,
              ArrowType.Binary.INSTANCE),
          types);
      // The cells as Arrow Java reads them back: decimals at their scale, a date as its day
      // number, a time as microseconds, a timestamp without zone as a LocalDateTime, with zone as
      // microseconds, a uuid as its text.
      List<Object> a = rows.get(0).values();
      assertEquals(new BigDecimal("1234567.89"), a.get(0));
      assertEquals(new BigDecimal("5.000"), rows.get(1).values().get(1));
      assertEquals(new BigDecimal("12345678901234567890.0123456789"), a.get(2));
      assertEquals((int) LocalDate.of(2024, 2, 29).toEpochDay(), a.get(4));
      assertEquals(LocalTime.of(13, 45, 1, 123_456_000).toNanoOfDay() / 1000, a.get(5));
      assertEquals(LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_456_000), a.get(6));
      assertEquals(1_709_214_301_123_456L, a.get(7));
      assertEquals(LocalDateTime.of(2024, 1, 1, 0, 0, 1), a.get(8));
      assertEquals(LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_456_789), a.get(10));
      assertEquals("0193a1b2-0000-7000-8000-000000000001", a.get(11).toString());
      assertArrayEquals(bytes(0xaa, 0x00), (byte[]) a.get(12));
      assertEquals(
          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), rows.get(1).values().get(6));
    }
  }

  /**
   * CREATE TABLE p (tm TIME, ts TIMESTAMP, ns TIMESTAMP_NS, ms TIMESTAMP_MS, dt DATE, tz
   * TIMESTAMPTZ, d DECIMAL(5,0)), then two INSERTs of one row each: the statistics merge across
   * inserts by value, not by text, as stock DuckLake's do for the same rows in one INSERT.
   */
  @Test
  void statisticsMergeAcrossInserts_byValue() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0,
                  "p",
                  List.of(
                      ColumnDef.of("tm", "time"),
                      ColumnDef.of("ts", "timestamp"),
                      ColumnDef.of("ns", "timestamp_ns"),
                      ColumnDef.of("ms", "timestamp_ms"),
                      ColumnDef.of("dt", "date"),
                      ColumnDef.of("tz", "timestamptz"),
                      ColumnDef.of("d", "decimal(5,0)"))));
      lake.catalog.commit(
          tx ->
              tx.insertInlined(
                  1,
                  List.of(
                      row(
                          LocalTime.of(23, 59, 59, 999_999_000),
                          LocalDateTime.of(9999, 1, 1, 0, 0),
                          LocalDateTime.of(2024, 1, 1, 0, 0),
                          LocalDateTime.of(2024, 1, 1, 0, 0),
                          LocalDate.of(9999, 1, 1),
                          Instant.parse("1900-01-01T00:00:00Z"),
                          new BigDecimal("-1")))));
      lake.catalog.commit(
          tx ->
              tx.insertInlined(
                  1,
                  List.of(
                      row(
                          LocalTime.of(1, 2, 3, 500_000_000),
                          LocalDateTime.of(2024, 1, 1, 0, 0, 0, 120_000_000),
                          LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1),
                          LocalDateTime.of(2024, 1, 1, 0, 0, 0, 100_000_000),
                          LocalDate.of(1, 1, 1),
                          Instant.parse("2024-01-01T00:00:00.5Z"),
                          new BigDecimal("0")))));
      assertEquals(
          List.of(
              "false 01:02:03.5 23:59:59.999999",
              "false 2024-01-01 00:00:00.12 9999-01-01 00:00:00",
              "false 2024-01-01 00:00:00 2024-01-01 00:00:00.000000001",
              "false 2024-01-01 00:00:00 2024-01-01 00:00:00.1",
              "false 0001-01-01 9999-01-01",
              "false 1900-01-01 00:00:00+00 2024-01-01 00:00:00.5+00",
              "false -1 0"),
          stats(lake.catalog.snapshot(), 1));
    }
  }

  /**
   * A blob's statistics are its escaped text, and the minimum and maximum are the least and
   * greatest of those texts: stock DuckLake recorded {@code \x01abcdefghijklmnop} and {@code
   * a\x5Cb\x27c\x22~ } for the blobs {@code \x01abcdefghijklmnop}, {@code a\b'c"~ } and {@code
   * \xFF\xFE}.
   */
  @Test
  void blobStatistics_areStockDuckLakesEscapedTexts() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "b", List.of(ColumnDef.of("bl", "blob"))));
      byte[] first = new byte[17];
      first[0] = 1;
      System.arraycopy("abcdefghijklmnop".getBytes(), 0, first, 1, 16);
      lake.catalog.commit(
          tx ->
              tx.insertInlined(
                  1,
                  List.of(
                      row((Object) first),
                      row((Object) "a\\b'c\"~ ".getBytes()),
                      row((Object) bytes(0xff, 0xfe)))));
      assertEquals(
          List.of("false \\x01abcdefghijklmnop a\\x5Cb\\x27c\\x22~ "),
          stats(lake.catalog.snapshot(), 1));
    }
  }

  @Test
  void valuesThatDoNotFit_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0,
                  "n",
                  List.of(
                      ColumnDef.nested(
                          "l",
                          "list",
                          ColumnDef.nested("element", "list", ColumnDef.of("element", "int32"))))));
      long head = lake.catalog.snapshot().snapshotId();
      List<Object> good = rowsToInsert().get(0);
      Object[][] cases = {
        {0, new BigDecimal("1.234"), "decimal(9,2) with three decimal places"},
        {0, new BigDecimal("12345678.00"), "decimal(9,2) with eight integer digits"},
        {0, 1.5d, "a Double for a decimal"},
        {3, new BigDecimal("-1000"), "decimal(4,1) with four integer digits"},
        {4, LocalDate.of(0, 12, 31), "a date before year 1"},
        {4, LocalDate.of(10000, 1, 1), "a date after year 9999"},
        {4, "2024-01-01", "a String for a date"},
        {5, LocalTime.of(1, 2, 3, 1), "a time with nanoseconds"},
        {6, LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000_001), "a timestamp with nanoseconds"},
        {6, Instant.EPOCH, "an Instant for a timestamp"},
        {7, LocalDateTime.of(2024, 1, 1, 0, 0), "a LocalDateTime for a timestamptz"},
        {7, Instant.parse("2024-01-01T00:00:00.000000001Z"), "an instant with nanoseconds"},
        {8, LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000_000), "timestamp_s with milliseconds"},
        {9, LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000), "timestamp_ms with microseconds"},
        {10, LocalDateTime.of(2300, 1, 1, 0, 0), "timestamp_ns past 2262"},
        {10, LocalDateTime.of(1600, 1, 1, 0, 0), "timestamp_ns before 1677"},
        {
          10,
          LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807),
          "timestamp_ns at the greatest count, DuckDB's infinity"
        },
        {11, "0193a1b2-0000-7000-8000-000000000001", "a String for a uuid"},
        {12, "ab", "a String for a blob"},
      };
      for (Object[] c : cases) {
        List<Object> bad = new ArrayList<>(good);
        bad.set((Integer) c[0], c[1]);
        InlineColumnFacts.assertInsertRefused(lake, 1, bad, "does not fit column", c[2]);
      }
      InvalidArgumentException nested =
          lake.refused(
              InvalidArgumentException.class,
              tx -> tx.insertInlined(2, List.of(row((Object) null))));
      assertTrue(nested.getMessage().contains("cannot be inlined"), nested.getMessage());
      assertEquals(head, lake.catalog.snapshot().snapshotId(), "no refusal minted a snapshot");
      assertTrue(lake.catalog.snapshot().inlinedRows(1).rows().isEmpty());
      assertTrue(lake.catalog.snapshot().columnStats(1).isEmpty());
    }
  }
}
