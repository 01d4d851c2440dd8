package dev.moraine.parquet;

import dev.moraine.core.inline.StatTexts;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The DuckLake statistics text of a Parquet leaf value, by the leaf's physical and logical type:
 * integers in decimal (unsigned ones as unsigned), decimals with their scale, dates, times and
 * timestamps as DuckDB prints them, strings as their UTF-8 text, uuids in their canonical form,
 * other binaries as DuckLake escapes blobs. Empty for a type with no text known here (INT96,
 * intervals), whose column then gets counts without bounds. Stateless.
 */
final class StatText {
  private StatText() {}

  static Optional<String> of(PrimitiveType type, Object value) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return Optional.of(String.valueOf(value));
      case FLOAT:
      case DOUBLE:
        return Optional.of(String.valueOf(value));
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
      return StatTexts.time(LocalTime.ofNanoOfDay(nanos(t.getUnit(), v)));
    }
    if (logical instanceof TimestampLogicalTypeAnnotation t) {
      long n = nanos(t.getUnit(), v);
      Instant at =
          Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
      return t.isAdjustedToUTC()
          ? StatTexts.timestamptz(at)
          : StatTexts.timestamp(LocalDateTime.ofInstant(at, ZoneOffset.UTC));
    }
    return null;
  }

  private static long nanos(LogicalTypeAnnotation.TimeUnit unit, long v) {
    return switch (unit) {
      case MILLIS -> TimeUnit.MILLISECONDS.toNanos(v);
      case MICROS -> TimeUnit.MICROSECONDS.toNanos(v);
      case NANOS -> v;
    };
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
      return StatTexts.blob(v.getBytes());
    }
    return null;
  }
}
