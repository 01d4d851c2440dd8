package dev.moraine.core.inline;

import dev.moraine.core.keyspace.Utf8Order;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The minimum and maximum texts of {@code ducklake_table_column_stats} for inlined values, written
 * as stock DuckLake 1.5.5 writes them for the same INSERT (checked by {@code
 * InlinedDataDifferentialTest}), and their order.
 *
 * <ul>
 *   <li>A decimal with exactly its scale's decimal places ({@code 5.000}, {@code -0.01}).
 *   <li>A date as {@code YYYY-MM-DD}; a time as {@code HH:MM:SS} followed, if it has any, by its
 *       fraction of a second without trailing zeros ({@code 01:02:03.5}); a timestamp as its date,
 *       a space and its time so written; a {@code timestamptz} the same in UTC followed by {@code
 *       +00}.
 *   <li>A uuid in its lower-case canonical form.
 *   <li>A blob byte by byte: a printable ASCII character other than backslash and the single and
 *       double quote as itself, any other byte as {@code \xHH} in upper-case hex.
 * </ul>
 *
 * Values of one column are ordered by their type: numbers by value, dates and times by time,
 * varchar by UTF-8 bytes; uuids and blobs by these texts (for a uuid that is the order of its 128
 * bits; for a blob it is what stock DuckLake records: {@code a\x5C} sorts above {@code \xFF}). A
 * text that does not parse as its type (never written here) sorts first. Stateless.
 */
public final class InlineStatText {
  private InlineStatText() {}

  /** The statistics text of a normalised value ({@link InlineValues}) of the given type. */
  static String of(InlineColumnType type, Object v) {
    return switch (type.kind()) {
      case DECIMAL -> ((BigDecimal) v).toPlainString();
      case DATE -> date((LocalDate) v);
      case TIME -> time((LocalTime) v);
      case TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP, TIMESTAMP_NS -> timestamp((LocalDateTime) v);
      case TIMESTAMPTZ -> timestamp(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC)) + "+00";
      case BLOB -> blob((byte[]) v);
      default -> String.valueOf(v);
    };
  }

  static String date(LocalDate d) {
    return String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
  }

  static String time(LocalTime t) {
    String text = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
    if (t.getNano() == 0) {
      return text;
    }
    String fraction = String.format("%09d", t.getNano());
    int end = fraction.length();
    while (fraction.charAt(end - 1) == '0') {
      end--;
    }
    return text + "." + fraction.substring(0, end);
  }

  static String timestamp(LocalDateTime t) {
    return date(t.toLocalDate()) + " " + time(t.toLocalTime());
  }

  static String blob(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      int c = b & 0xff;
      if (c >= 0x20 && c <= 0x7e && c != '\\' && c != '\'' && c != '"') {
        out.append((char) c);
      } else {
        out.append(String.format("\\x%02X", c));
      }
    }
    return out.toString();
  }

  /** Compares two statistics texts of one column's type. */
  static int compare(InlineColumnType type, String a, String b) {
    return switch (type.kind()) {
      case VARCHAR, BLOB, UUID -> Utf8Order.compare(a, b);
      case BOOLEAN -> Boolean.compare(parseBoolean(a), parseBoolean(b));
      case FLOAT32, FLOAT64 -> Double.compare(parseDouble(a), parseDouble(b));
      case DECIMAL -> compareNullsFirst(parseDecimal(a), parseDecimal(b));
      case DATE, TIME, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP, TIMESTAMP_NS, TIMESTAMPTZ ->
          compareNullsFirst(temporalKey(a), temporalKey(b));
      default -> compareNullsFirst(parseInteger(a), parseInteger(b));
    };
  }

  private static <T extends Comparable<T>> int compareNullsFirst(T a, T b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return a.compareTo(b);
  }

  /** {@code true} or {@code 1} (DuckDB's Parquet statistics write a boolean as 0 or 1). */
  private static boolean parseBoolean(String s) {
    return s.equals("1") || Boolean.parseBoolean(s);
  }

  /** A double's text, DuckDB's {@code inf}, {@code -inf} and {@code nan} included. */
  private static double parseDouble(String s) {
    switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "inf", "+inf", "infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Double.NEGATIVE_INFINITY;
      case "nan":
        return Double.NaN;
      default:
        break;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NEGATIVE_INFINITY;
    }
  }

  private static BigInteger parseInteger(String s) {
    try {
      return new BigInteger(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static BigDecimal parseDecimal(String s) {
    try {
      return new BigDecimal(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Year (any number of digits), month, day; then optionally time of day, fraction and +00. */
  private static final Pattern DATE_TIME =
      Pattern.compile(
          "(?:(\\d+)-(\\d{2})-(\\d{2}))?( ?)(?:(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?)?(\\+00)?");

  /**
   * A date, time or timestamp text as nanoseconds since 1970-01-01 00:00 (a time: since midnight),
   * or null if it is not one.
   */
  private static BigInteger temporalKey(String s) {
    Matcher m = DATE_TIME.matcher(s);
    if (s.isEmpty() || !m.matches()) {
      return null;
    }
    boolean hasDate = m.group(1) != null;
    boolean hasTime = m.group(5) != null;
    if (!hasDate && !hasTime || (hasDate && hasTime) != !m.group(4).isEmpty()) {
      return null;
    }
    try {
      BigInteger nanos = BigInteger.ZERO;
      if (hasDate) {
        long day =
            LocalDate.of(
                    Integer.parseInt(m.group(1)),
                    Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)))
                .toEpochDay();
        nanos = BigInteger.valueOf(day).multiply(BigInteger.valueOf(86_400_000_000_000L));
      }
      if (hasTime) {
        String fraction = m.group(8) == null ? "" : m.group(8);
        LocalTime t =
            LocalTime.of(
                Integer.parseInt(m.group(5)),
                Integer.parseInt(m.group(6)),
                Integer.parseInt(m.group(7)),
                fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9)));
        nanos = nanos.add(BigInteger.valueOf(t.toNanoOfDay()));
      }
      return nanos;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
