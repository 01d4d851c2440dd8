package dev.moraine.core.inline;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * The texts DuckLake's column statistics hold for values of its types, for code outside the inline
 * encoding that writes statistics (a compaction's Parquet writer): the same texts the inline insert
 * records, which are stock DuckLake's. Stateless.
 */
public final class StatTexts {
  private StatTexts() {}

  /** A date, {@code yyyy-MM-dd}. */
  public static String date(LocalDate d) {
    return InlineStatText.date(d);
  }

  /** A time of day, {@code HH:mm:ss} with the fraction of a second when it has one. */
  public static String time(LocalTime t) {
    return InlineStatText.time(t);
  }

  /** A timestamp without a zone. */
  public static String timestamp(LocalDateTime t) {
    return InlineStatText.timestamp(t);
  }

  /** A {@code timestamptz}, as its UTC time with the suffix {@code +00}. */
  public static String timestamptz(Instant t) {
    return InlineStatText.timestamp(LocalDateTime.ofInstant(t, ZoneOffset.UTC)) + "+00";
  }

  /** A blob: printable bytes as they are, others (and quotes, backslash) as {@code \xNN}. */
  public static String blob(byte[] bytes) {
    return InlineStatText.blob(bytes);
  }
}
