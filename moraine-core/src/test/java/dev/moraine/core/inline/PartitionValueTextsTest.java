package dev.moraine.core.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The partition value texts stock DuckLake 1.5.5 wrote in {@code ducklake_file_partition_value}
 * when it flushed rows of a table partitioned by {@code (bo, dt, n, u, year(dt), month(dt),
 * day(dt))} and by {@code (b, year(ts), month(ts), day(d), hour(ts))} (probed), and the forms whose
 * text is not known here.
 */
class PartitionValueTextsTest {
  private static Optional<String> text(String transform, Object value) {
    return PartitionValueTexts.of(transform, value);
  }

  @Test
  void identityValues_asStockWroteThem() {
    assertEquals(Optional.of("true"), text("identity", true));
    assertEquals(Optional.of("false"), text("identity", false));
    assertEquals(Optional.of("0001-01-01"), text("identity", LocalDate.of(1, 1, 1)));
    assertEquals(Optional.of("2024-02-29"), text("identity", LocalDate.of(2024, 2, 29)));
    assertEquals(Optional.of("-5"), text("identity", -5L));
    assertEquals(Optional.of("9223372036854775807"), text("identity", Long.MAX_VALUE));
    assertEquals(Optional.of("200"), text("identity", 200L));
    assertEquals(
        Optional.of("18446744073709551615"),
        text("identity", new BigInteger("18446744073709551615")));
    assertEquals(Optional.of("a b/c=d%é"), text("identity", "a b/c=d%é"));
  }

  @Test
  void calendarTransforms_asStockWroteThem() {
    LocalDate d = LocalDate.of(1, 1, 1);
    assertEquals(Optional.of("1"), text("year", d));
    assertEquals(Optional.of("1"), text("month", d));
    assertEquals(Optional.of("1"), text("day", d));
    LocalDateTime ts = LocalDateTime.of(2023, 12, 31, 23, 0);
    assertEquals(Optional.of("2023"), text("year", ts));
    assertEquals(Optional.of("12"), text("month", ts));
    assertEquals(Optional.of("23"), text("hour", ts));
    assertEquals(
        Optional.of("0"), text("hour", LocalDateTime.of(2024, 1, 1, 0, 0, 0, 500_000_000)));
    assertEquals(Optional.of("29"), text("day", LocalDate.of(2024, 2, 29)));
    // A timestamptz in UTC.
    assertEquals(Optional.of("23"), text("hour", Instant.parse("1999-12-31T23:30:00Z")));
  }

  @Test
  void formsWhoseTextIsNotKnown_areEmpty_andNullIsRefused() {
    assertEquals(Optional.empty(), text("identity", 1.5d));
    assertEquals(Optional.empty(), text("identity", LocalDateTime.of(2024, 1, 1, 0, 0)));
    assertEquals(Optional.empty(), text("identity", UUID.randomUUID()));
    assertEquals(Optional.empty(), text("identity", LocalDate.of(10_000, 1, 1)));
    assertEquals(Optional.empty(), text("hour", LocalDate.of(2024, 1, 1)));
    assertEquals(Optional.empty(), text("year", LocalTime.NOON));
    assertEquals(Optional.empty(), text("bucket(4)", 7L));
    assertThrows(IllegalArgumentException.class, () -> text("identity", null));
  }
}
