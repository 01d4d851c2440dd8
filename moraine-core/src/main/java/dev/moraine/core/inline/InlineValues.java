package dev.moraine.core.inline;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.keyspace.proto.ColumnValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Checks the Java values of rows to be inlined against their columns and brings them to one form
 * per column kind ({@link InlineColumnType.Kind}):
 *
 * <ul>
 *   <li>integers as {@link Long} ({@link BigInteger} for uint64), from a {@code Byte}, {@code
 *       Short}, {@code Integer} or {@code Long} (or {@code BigInteger} for uint64) within range;
 *   <li>{@code Boolean}, {@code Float}, {@code Double}, {@code String} as given; a {@code byte[]}
 *       copied;
 *   <li>a decimal as a {@link BigDecimal} of exactly the column's scale: a value with more decimal
 *       places than the scale, or more integer digits than precision minus scale, does not fit;
 *   <li>a date as a {@link LocalDate}; a time as a {@link LocalTime} of whole microseconds; a
 *       timestamp as a {@link LocalDateTime} of whole seconds, milliseconds, microseconds or
 *       nanoseconds (by its type); a {@code timestamptz} as an {@link Instant} of whole
 *       microseconds; dates and timestamps in the years 1 to 9999 (UTC for an instant), and a
 *       {@code timestamp_ns} within the 64-bit nanosecond range (1677-09-21 to 2262-04-11) short of
 *       its greatest count, DuckDB's infinity;
 *   <li>a {@code uuid} as a {@link UUID};
 *   <li>a {@code struct} as a {@code Map<String, Object>} keyed by member name (exact spelling),
 *       each value in its member's form, a member the map leaves out being null; it comes back as
 *       an unmodifiable map holding every member in column order;
 *   <li>a {@code list} as a {@code List<Object>} of values in the element's form (not NaN), which
 *       comes back as an unmodifiable list;
 *   <li>a {@code map} as a {@code Map<?, ?>} of keys (not null) and values in the key's and the
 *       value's forms (neither NaN), which comes back as an unmodifiable map in the given map's
 *       iteration order (keep it insertion-ordered, a {@code LinkedHashMap}, for a set order).
 * </ul>
 *
 * Stateless.
 */
public final class InlineValues {
  private InlineValues() {}

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  /**
   * Checks every row against the columns and returns the rows' values in their normal form.
   *
   * @param types the inline type of each column, in the same order
   * @throws InvalidArgumentException for a row of the wrong width, a null in a NOT NULL column, a
   *     value of the wrong type, out of range or of too fine a precision, a struct value that is
   *     not a map or names a member the struct lacks; nothing is kept
   */
  public static List<List<Object>> check(
      List<ColumnValue> columns, List<InlineColumnType> types, List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = rows.get(r);
      if (row == null) {
        throw new InvalidArgumentException("row " + r + " is null");
      }
      if (row.size() != columns.size()) {
        throw new InvalidArgumentException(
            "row "
                + r
                + " has "
                + row.size()
                + " values; the table has "
                + columns.size()
                + " columns");
      }
      List<Object> normal = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        normal.add(value(r, columns.get(c), types.get(c), row.get(c)));
      }
      out.add(normal);
    }
    return out;
  }

  private static Object value(int r, ColumnValue column, InlineColumnType type, Object v) {
    if (v == null) {
      if (!column.getNullsAllowed()) {
        throw new InvalidArgumentException(
            "row "
                + r
                + " has a null for column '"
                + column.getColumnName()
                + "', which is NOT NULL");
      }
      return null;
    }
    Object normal =
        switch (type.kind()) {
          case BOOLEAN -> v instanceof Boolean ? v : null;
          case INT8 -> ranged(v, -128, 127);
          case INT16 -> ranged(v, Short.MIN_VALUE, Short.MAX_VALUE);
          case INT32 -> ranged(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
          case INT64 -> ranged(v, Long.MIN_VALUE, Long.MAX_VALUE);
          case UINT8 -> ranged(v, 0, 255);
          case UINT16 -> ranged(v, 0, 65_535);
          case UINT32 -> ranged(v, 0, 4_294_967_295L);
          case UINT64 -> unsigned64(v);
          case FLOAT32 -> v instanceof Float ? v : null;
          case FLOAT64 -> v instanceof Double ? v : null;
          case VARCHAR -> v instanceof String ? v : null;
          case BLOB -> v instanceof byte[] b ? b.clone() : null;
          case DECIMAL -> v instanceof BigDecimal d ? decimal(d, type) : null;
          case DATE -> v instanceof LocalDate d && inYears(d) ? d : null;
          case TIME -> v instanceof LocalTime t && t.getNano() % 1000 == 0 ? t : null;
          case TIMESTAMP_S -> timestamp(v, 1_000_000_000);
          case TIMESTAMP_MS -> timestamp(v, 1_000_000);
          case TIMESTAMP -> timestamp(v, 1_000);
          case TIMESTAMP_NS -> nanoTimestamp(v);
          case TIMESTAMPTZ -> instant(v);
          case UUID -> v instanceof UUID ? v : null;
          case STRUCT -> v instanceof Map<?, ?> m ? struct(r, column, type, m) : null;
          case LIST -> v instanceof List<?> l ? list(r, column, type, l) : null;
          case MAP -> v instanceof Map<?, ?> m ? map(r, column, type, m) : null;
        };
    if (normal == null) {
      throw new InvalidArgumentException(
          "row "
              + r
              + ": "
              + describe(v)
              + " does not fit column '"
              + column.getColumnName()
              + "' of type "
              + column.getColumnType());
    }
    return normal;
  }

  /**
   * A struct value in normal form: every member in column order, each checked as a column of its
   * own.
   */
  private static Map<String, Object> struct(
      int r, ColumnValue column, InlineColumnType type, Map<?, ?> given) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (InlineColumnType.Member m : type.members()) {
      String name = m.column().getColumnName();
      out.put(name, value(r, m.column(), m.type(), given.get(name)));
    }
    for (Object key : given.keySet()) {
      if (!(key instanceof String name) || !out.containsKey(name)) {
        throw new InvalidArgumentException(
            "row "
                + r
                + ": struct column '"
                + column.getColumnName()
                + "' has no member "
                + (key instanceof String ? "'" + key + "'" : String.valueOf(key))
                + " (members: "
                + String.join(", ", out.keySet())
                + ")");
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * A list value in normal form: its elements, each checked as a value of the element column. A NaN
   * element is refused: stock DuckLake records it in the element's minimum and maximum, unlike a
   * top-level NaN, and the verb does not write that form yet.
   */
  private static List<Object> list(
      int r, ColumnValue column, InlineColumnType type, List<?> given) {
    InlineColumnType.Member element = type.members().get(0);
    List<Object> out = new ArrayList<>(given.size());
    for (Object e : given) {
      if (e instanceof Float f && f.isNaN() || e instanceof Double d && d.isNaN()) {
        throw new InvalidArgumentException(
            "row "
                + r
                + ": a NaN element of list column '"
                + column.getColumnName()
                + "' cannot be inlined yet");
      }
      out.add(value(r, element.column(), element.type(), e));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * A map value in normal form: its entries in the given map's iteration order, keys and values
   * each checked as values of the key and value columns; a null or NaN key, and a NaN value, are
   * refused.
   */
  private static Map<Object, Object> map(
      int r, ColumnValue column, InlineColumnType type, Map<?, ?> given) {
    InlineColumnType.Member key = type.members().get(0);
    InlineColumnType.Member value = type.members().get(1);
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : given.entrySet()) {
      if (e.getKey() == null || isNaN(e.getKey()) || isNaN(e.getValue())) {
        throw new InvalidArgumentException(
            "row "
                + r
                + ": map column '"
                + column.getColumnName()
                + "' cannot inline a null or NaN key or a NaN value");
      }
      out.put(
          value(r, key.column(), key.type(), e.getKey()),
          value(r, value.column(), value.type(), e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static boolean isNaN(Object v) {
    return v instanceof Float f && f.isNaN() || v instanceof Double d && d.isNaN();
  }

  private static String describe(Object v) {
    return v.getClass().getSimpleName() + " " + (v instanceof byte[] ? "bytes" : String.valueOf(v));
  }

  /** An integral Byte, Short, Integer or Long within [min, max] as a Long; else null. */
  private static Object ranged(Object v, long min, long max) {
    if (!(v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long)) {
      return null;
    }
    long x = ((Number) v).longValue();
    return x >= min && x <= max ? x : null;
  }

  private static Object unsigned64(Object v) {
    BigInteger x;
    if (v instanceof BigInteger b) {
      x = b;
    } else if (v instanceof Byte
        || v instanceof Short
        || v instanceof Integer
        || v instanceof Long) {
      x = BigInteger.valueOf(((Number) v).longValue());
    } else {
      return null;
    }
    return x.signum() >= 0 && x.compareTo(U64_MAX) <= 0 ? x : null;
  }

  /** The decimal at the column's scale, or null if that needs rounding or the digits overflow. */
  private static BigDecimal decimal(BigDecimal d, InlineColumnType type) {
    BigDecimal scaled;
    try {
      scaled = d.setScale(type.scale());
    } catch (ArithmeticException e) {
      return null;
    }
    return scaled.unscaledValue().abs().compareTo(BigInteger.TEN.pow(type.precision())) < 0
        ? scaled
        : null;
  }

  private static boolean inYears(LocalDate d) {
    return d.getYear() >= 1 && d.getYear() <= 9999;
  }

  /** A LocalDateTime in the years 1 to 9999 whose nanoseconds are a multiple of {@code unit}. */
  private static Object timestamp(Object v, int unit) {
    return v instanceof LocalDateTime t && inYears(t.toLocalDate()) && t.getNano() % unit == 0
        ? t
        : null;
  }

  /**
   * A LocalDateTime whose nanoseconds since the epoch fit a signed 64-bit count, other than the
   * greatest count (DuckDB's infinity). The multiplication in {@link #epochNanos} also refuses the
   * last second before the least count, which DuckDB 1.5.5 cannot turn into text either.
   */
  private static Object nanoTimestamp(Object v) {
    if (!(v instanceof LocalDateTime t)) {
      return null;
    }
    try {
      // DuckDB reads the greatest count as infinity, so it is not a timestamp to inline.
      return epochNanos(t) != Long.MAX_VALUE ? t : null;
    } catch (ArithmeticException e) {
      return null;
    }
  }

  /**
   * Nanoseconds since 1970-01-01 00:00 of a timestamp.
   *
   * @throws ArithmeticException if they do not fit a long
   */
  static long epochNanos(LocalDateTime t) {
    long seconds = t.toEpochSecond(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), t.getNano());
  }

  private static Object instant(Object v) {
    return v instanceof Instant i
            && i.getNano() % 1000 == 0
            && inYears(LocalDate.ofInstant(i, ZoneOffset.UTC))
        ? i
        : null;
  }
}
