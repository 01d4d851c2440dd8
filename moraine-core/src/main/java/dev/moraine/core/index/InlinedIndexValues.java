package dev.moraine.core.index;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.ducklake.types.DuckLakeType;
import dev.moraine.ducklake.types.DuckLakeTypeParseException;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The index form ({@link IndexKeyValue}) of an inlined cell, as the Rust crate derives it from the
 * Arrow field the inline chunk holds it in (RFC 0002 §9.3, §10): integers at their width and sign;
 * floats; booleans; text; blobs as bytes; a {@code uuid} as its text (Java's chunks hold uuids as
 * text); a date as its day count (4 bytes); a timestamp as its count in its own unit (seconds,
 * milliseconds, microseconds or nanoseconds; a {@code timestamptz} in microseconds), 8 bytes.
 * Decimals, times and nested types are not indexable. Stateless.
 */
public final class InlinedIndexValues {
  private InlinedIndexValues() {}

  /**
   * The index form of {@code value}, a cell of a column of DuckLake type {@code type} in the form
   * the inline verbs take and read back ({@code InlinedRows.Row#typedValues}); null for a NULL.
   *
   * @throws InvalidArgumentException if the type is not indexable or the value is not of its form
   */
  /**
   * Whether a column of DuckLake type {@code type} can be indexed: its values have an index form.
   */
  public static boolean indexable(String type) {
    DuckLakeType t;
    try {
      t = DuckLakeType.parse(type);
    } catch (DuckLakeTypeParseException e) {
      return false;
    }
    return switch (t.id()) {
      case BOOLEAN,
          INT8,
          INT16,
          INT32,
          INT64,
          UINT8,
          UINT16,
          UINT32,
          UINT64,
          FLOAT32,
          FLOAT64,
          VARCHAR,
          UUID,
          BLOB,
          DATE,
          TIMESTAMP_S,
          TIMESTAMP_MS,
          TIMESTAMP,
          TIMESTAMPTZ,
          TIMESTAMP_NS ->
          true;
      default -> false;
    };
  }

  public static IndexKeyValue of(String type, Object value) {
    DuckLakeType t;
    try {
      t = DuckLakeType.parse(type);
    } catch (DuckLakeTypeParseException e) {
      throw new InvalidArgumentException("a column of type " + type + " is not indexable");
    }
    if (value == null) {
      return null;
    }
    try {
      return switch (t.id()) {
        case BOOLEAN -> new IndexKeyValue.Bool((Boolean) value);
        case INT8 -> new IndexKeyValue.Signed(((Number) value).longValue(), 1);
        case INT16 -> new IndexKeyValue.Signed(((Number) value).longValue(), 2);
        case INT32 -> new IndexKeyValue.Signed(((Number) value).longValue(), 4);
        case INT64 -> new IndexKeyValue.Signed(((Number) value).longValue(), 8);
        case UINT8 -> new IndexKeyValue.Unsigned(((Number) value).longValue(), 1);
        case UINT16 -> new IndexKeyValue.Unsigned(((Number) value).longValue(), 2);
        case UINT32 -> new IndexKeyValue.Unsigned(((Number) value).longValue(), 4);
        case UINT64 ->
            new IndexKeyValue.Unsigned(
                value instanceof BigInteger b ? b.longValue() : ((Number) value).longValue(), 8);
        case FLOAT32 -> new IndexKeyValue.Float32((Float) value);
        case FLOAT64 -> new IndexKeyValue.Float64((Double) value);
        case VARCHAR -> new IndexKeyValue.Text((String) value);
        case UUID ->
            new IndexKeyValue.Text(value instanceof UUID u ? u.toString() : (String) value);
        case BLOB -> new IndexKeyValue.Bytes((byte[]) value);
        case DATE -> new IndexKeyValue.Signed(((LocalDate) value).toEpochDay(), 4);
        case TIMESTAMP_S -> new IndexKeyValue.Signed(seconds(value), 8);
        case TIMESTAMP_MS -> new IndexKeyValue.Signed(count(value, 1_000L, 1_000_000L), 8);
        case TIMESTAMP, TIMESTAMPTZ ->
            new IndexKeyValue.Signed(count(value, 1_000_000L, 1_000L), 8);
        case TIMESTAMP_NS -> new IndexKeyValue.Signed(count(value, 1_000_000_000L, 1L), 8);
        default ->
            throw new InvalidArgumentException("a column of type " + type + " is not indexable");
      };
    } catch (ClassCastException e) {
      throw new InvalidArgumentException(
          "a " + value.getClass().getSimpleName() + " is not a value of a " + type + " column");
    }
  }

  private static Instant instant(Object value) {
    return value instanceof Instant i ? i : ((LocalDateTime) value).toInstant(ZoneOffset.UTC);
  }

  private static long seconds(Object value) {
    return instant(value).getEpochSecond();
  }

  /** The count of {@code perSecond} units since the epoch, {@code nanosPerUnit} each. */
  private static long count(Object value, long perSecond, long nanosPerUnit) {
    Instant i = instant(value);
    return Math.addExact(
        Math.multiplyExact(i.getEpochSecond(), perSecond), i.getNano() / nanosPerUnit);
  }
}
