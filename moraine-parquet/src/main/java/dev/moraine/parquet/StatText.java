package dev.moraine.parquet;

import dev.moraine.core.inline.StatTexts;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The DuckLake statistics text of a Parquet leaf value, by the leaf's physical and logical type:
 * integers in decimal (unsigned ones as unsigned), booleans as 0 and 1, floats and doubles as
 * DuckDB prints them, decimals with their scale, dates, times and timestamps as DuckDB prints them,
 * strings as their UTF-8 text, uuids in their canonical form, other binaries (blobs) in upper-case
 * hexadecimal, as DuckDB's Parquet statistics give them. Empty for a type with no text known here
 * (INT96, intervals), whose column then gets counts without bounds. Stateless.
 */
final class StatText {
  private StatText() {}

  static Optional<String> of(PrimitiveType type, Object value) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return Optional.of((Boolean) value ? "1" : "0");
      case FLOAT:
        return Optional.of(floating((Float) value, true));
      case DOUBLE:
        return Optional.of(floating((Double) value, false));
      case INT32:
      case INT64:
        return Optional.ofNullable(integer(logical, ((Number) value).longValue()));
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return Optional.ofNullable(binary(type, logical, (Binary) value));
      default:
        return Optional.empty();
    }
  }

  private static String integer(LogicalTypeAnnotation logical, long v) {
    if (logical == null) {
      return Long.toString(v);
    }
    if (logical instanceof IntLogicalTypeAnnotation i) {
      if (i.isSigned()) {
        return Long.toString(v);
      }
      return i.getBitWidth() == 64 ? Long.toUnsignedString(v) : Long.toString(v & 0xffffffffL);
    }
    if (logical instanceof DecimalLogicalTypeAnnotation d) {
      return BigDecimal.valueOf(v, d.getScale()).toPlainString();
    }
    if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return StatTexts.date(LocalDate.ofEpochDay(v));
    }
    if (logical instanceof TimeLogicalTypeAnnotation t) {
      Instant at = instant(t.getUnit(), v);
      return StatTexts.time(
          LocalTime.ofNanoOfDay(
              Math.floorMod(at.getEpochSecond(), 86_400L) * 1_000_000_000L + at.getNano()));
    }
    if (logical instanceof TimestampLogicalTypeAnnotation t) {
      Instant at = instant(t.getUnit(), v);
      return t.isAdjustedToUTC()
          ? StatTexts.timestamptz(at)
          : StatTexts.timestamp(LocalDateTime.ofInstant(at, ZoneOffset.UTC));
    }
    return null;
  }

  /** The instant {@code v} units after the epoch, for any {@code v} (nothing saturates). */
  private static Instant instant(LogicalTypeAnnotation.TimeUnit unit, long v) {
    long perSecond =
        switch (unit) {
          case MILLIS -> 1_000L;
          case MICROS -> 1_000_000L;
          case NANOS -> 1_000_000_000L;
        };
    return Instant.ofEpochSecond(
        Math.floorDiv(v, perSecond), Math.floorMod(v, perSecond) * (1_000_000_000L / perSecond));
  }

  /**
   * A float's or double's text as DuckDB prints it: the shortest digits that read back as the
   * value, positional from 1e-4 up to below 1e16 (with {@code .0} when whole), else as {@code
   * 1e+20} or {@code 1e-05}; {@code inf}, {@code -inf} and {@code nan}. {@code single} says the
   * value is a float, whose shortest digits are fewer.
   */
  static String floating(double v, boolean single) {
    if (Double.isNaN(v)) {
      return "nan";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0.0" : "0.0";
    }
    BigDecimal d = shortest(v, single);
    int exponent = d.precision() - d.scale() - 1;
    String sign = d.signum() < 0 ? "-" : "";
    if (exponent >= 16 || exponent < -4) {
      String digits = d.unscaledValue().abs().toString();
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      int e = Math.abs(exponent);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
    }
    String plain = d.abs().toPlainString();
    return sign + (plain.contains(".") ? plain : plain + ".0");
  }

  /**
   * The fewest significant digits that read back as {@code v} (as a float when {@code single}):
   * Java 17's {@code Double.toString} sometimes gives more.
   */
  private static BigDecimal shortest(double v, boolean single) {
    BigDecimal exact = new BigDecimal(v);
    for (int digits = 1; digits < 17; digits++) {
      BigDecimal d = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (single ? d.floatValue() == (float) v : d.doubleValue() == v) {
        return d.stripTrailingZeros();
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
  }

  private static String binary(PrimitiveType type, LogicalTypeAnnotation logical, Binary v) {
    if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
      return v.toStringUsingUTF8();
    }
    if (logical instanceof DecimalLogicalTypeAnnotation d) {
      return new BigDecimal(new BigInteger(v.getBytes()), d.getScale()).toPlainString();
    }
    if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
      ByteBuffer b = ByteBuffer.wrap(v.getBytes());
      return new UUID(b.getLong(), b.getLong()).toString();
    }
    if (logical == null && type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY) {
      return HexFormat.of().withUpperCase().formatHex(v.getBytes());
    }
    return null;
  }
}
