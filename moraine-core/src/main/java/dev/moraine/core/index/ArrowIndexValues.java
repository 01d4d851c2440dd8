package dev.moraine.core.index;

import dev.moraine.core.catalog.InvalidArgumentException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The index form ({@link IndexKeyValue}) of a cell of an inline chunk, worked out from the Arrow
 * field the chunk stores it in, as the Rust crate derives an entry from the Arrow array it reads
 * (RFC 0002 §10): integers at the field's width and sign, floats, booleans, text, binary and
 * fixed-size binary as bytes, a day-unit date as its day count (4 bytes), a timestamp as its count
 * in the field's unit (8 bytes). Whoever wrote the chunk, this is the value its entries were made
 * from. Stateless.
 */
public final class ArrowIndexValues {
  private ArrowIndexValues() {}

  /**
   * The index form of {@code raw}, a cell of {@code field} as Arrow Java's {@code getObject} gives
   * it (text as a {@code String} or Arrow {@code Text}); null for a NULL.
   *
   * @throws InvalidArgumentException if the field's type is not one an index takes
   */
  public static IndexKeyValue of(Field field, Object raw) {
    if (raw == null) {
      return null;
    }
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int integer) {
      long bits = raw instanceof Character c ? c : ((Number) raw).longValue();
      int width = integer.getBitWidth() / 8;
      if (integer.getIsSigned()) {
        return new IndexKeyValue.Signed(bits, width);
      }
      return new IndexKeyValue.Unsigned(
          width == 8 ? bits : bits & ((1L << (8 * width)) - 1), width);
    }
    if (type instanceof ArrowType.FloatingPoint f) {
      if (f.getPrecision() == FloatingPointPrecision.SINGLE) {
        return new IndexKeyValue.Float32(((Number) raw).floatValue());
      }
      if (f.getPrecision() == FloatingPointPrecision.DOUBLE) {
        return new IndexKeyValue.Float64(((Number) raw).doubleValue());
      }
    }
    if (type instanceof ArrowType.Bool) {
      return new IndexKeyValue.Bool((Boolean) raw);
    }
    if (type instanceof ArrowType.Utf8) {
      return new IndexKeyValue.Text(raw.toString());
    }
    if (type instanceof ArrowType.Binary || type instanceof ArrowType.FixedSizeBinary) {
      return new IndexKeyValue.Bytes((byte[]) raw);
    }
    if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      long days = raw instanceof LocalDate d ? d.toEpochDay() : ((Number) raw).longValue();
      return new IndexKeyValue.Signed(days, 4);
    }
    if (type instanceof ArrowType.Timestamp t) {
      return new IndexKeyValue.Signed(count(t, raw), 8);
    }
    throw new InvalidArgumentException(
        "inlined column '" + field.getName() + "' of Arrow type " + type + " is not indexable");
  }

  /** A timestamp cell's count of its unit since the epoch. */
  private static long count(ArrowType.Timestamp t, Object raw) {
    if (!(raw instanceof LocalDateTime local)) {
      return ((Number) raw).longValue();
    }
    long seconds = local.toEpochSecond(ZoneOffset.UTC);
    long nanos = local.getNano();
    return switch (t.getUnit()) {
      case SECOND -> seconds;
      case MILLISECOND -> seconds * 1_000L + nanos / 1_000_000L;
      case MICROSECOND -> seconds * 1_000_000L + nanos / 1_000L;
      case NANOSECOND -> seconds * 1_000_000_000L + nanos;
    };
  }
}
