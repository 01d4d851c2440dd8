package dev.moraine.core.inline;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The text stock DuckLake 1.5.5 records in {@code ducklake_file_partition_value} for a row's value
 * under a partition key, computed from the Java value the inline verbs take and read back ({@code
 * InlinedRows.Row.typedValues()}). Probed on stock: {@code identity} writes the value as DuckDB
 * prints it; {@code year}, {@code month}, {@code day} and {@code hour} write the calendar year, the
 * month of the year (1 to 12), the day of the month and the hour of the day as decimal integers. A
 * {@code timestamptz} is taken in UTC. Only the forms whose text is known to be DuckDB's are given:
 * integers, text, booleans and dates under {@code identity}, dates and timestamps under the four
 * others; any other is empty. A null value has no text here: stock records SQL NULL, which the lake
 * format cannot hold (its partition values are strings), so callers refuse it.
 */
public final class PartitionValueTexts {
  private PartitionValueTexts() {}

  /**
   * The partition value text of {@code value} under {@code transform}, or empty when it is not one
   * of the forms above.
   *
   * @throws IllegalArgumentException if {@code value} is null
   */
  public static Optional<String> of(String transform, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("a null value has no partition value text");
    }
    switch (transform) {
      case "identity":
        if (value instanceof Long
            || value instanceof Integer
            || value instanceof Short
            || value instanceof Byte
            || value instanceof BigInteger
            || value instanceof String
            || value instanceof Boolean) {
          return Optional.of(value.toString());
        }
        if (value instanceof LocalDate d && d.getYear() >= 1 && d.getYear() <= 9999) {
          return Optional.of(d.toString());
        }
        return Optional.empty();
      case "year":
      case "month":
      case "day":
      case "hour":
        LocalDateTime at = dateTime(value);
        if (at == null || (transform.equals("hour") && value instanceof LocalDate)) {
          return Optional.empty();
        }
        int part =
            switch (transform) {
              case "year" -> at.getYear();
              case "month" -> at.getMonthValue();
              case "day" -> at.getDayOfMonth();
              default -> at.getHour();
            };
        return Optional.of(Integer.toString(part));
      default:
        return Optional.empty();
    }
  }

  private static LocalDateTime dateTime(Object value) {
    if (value instanceof LocalDate d) {
      return d.atStartOfDay();
    }
    if (value instanceof LocalDateTime t) {
      return t;
    }
    if (value instanceof Instant i) {
      return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }
    return null;
  }
}
