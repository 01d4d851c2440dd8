package dev.moraine.parquet;

import dev.moraine.core.catalog.model.InlinedRows;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Puts the Java values of inlined cells ({@link InlinedRows.Row#typedValues()}) into Parquet rows
 * of the fields {@link FlushSchema} gives: a null leaves the field out, a struct fills its group
 * member by member, a list or map repeats its {@code list} or {@code key_value} group (none for an
 * empty one). Stateless.
 */
final class FlushValues {
  private FlushValues() {}

  /** Adds {@code value} as field {@code field} of {@code row}; a null adds nothing. */
  static void add(Group row, Type field, Object value) {
    if (value == null) {
      return;
    }
    if (field.isPrimitive()) {
      addPrimitive(row, field.getName(), field.asPrimitiveType(), value);
      return;
    }
    GroupType g = field.asGroupType();
    Group group = row.addGroup(field.getName());
    LogicalTypeAnnotation kind = g.getLogicalTypeAnnotation();
    if (kind instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      Type element = g.getType(0).asGroupType().getType(0);
      for (Object e : (List<?>) value) {
        add(group.addGroup(0), element, e);
      }
    } else if (kind instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
      GroupType entry = g.getType(0).asGroupType();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        Group kv = group.addGroup(0);
        add(kv, entry.getType(0), e.getKey());
        add(kv, entry.getType(1), e.getValue());
      }
    } else {
      Map<?, ?> members = (Map<?, ?>) value;
      for (Type member : g.getFields()) {
        add(group, member, members.get(member.getName()));
      }
    }
  }

  private static void addPrimitive(Group row, String name, PrimitiveType type, Object v) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN -> row.add(name, (Boolean) v);
      case FLOAT -> row.add(name, (Float) v);
      case DOUBLE -> row.add(name, (Double) v);
      case INT32 -> row.add(name, int32(v));
      case INT64 -> row.add(name, int64(logical, v));
      case BINARY ->
          row.add(
              name,
              v instanceof String s
                  ? Binary.fromString(s)
                  : Binary.fromConstantByteArray(((byte[]) v).clone()));
      case FIXED_LEN_BYTE_ARRAY -> row.add(name, fixed(logical, v));
      default -> throw new IllegalArgumentException("no inline value is written as " + type);
    }
  }

  private static int int32(Object v) {
    if (v instanceof LocalDate d) {
      return Math.toIntExact(d.toEpochDay());
    }
    if (v instanceof BigDecimal d) {
      return d.unscaledValue().intValueExact();
    }
    // Unsigned 32-bit values go as their bits, as Parquet keeps them.
    return (int) ((Number) v).longValue();
  }

  private static long int64(LogicalTypeAnnotation logical, Object v) {
    if (v instanceof BigInteger u) {
      // A uint64 goes as its bits.
      return u.longValue();
    }
    if (v instanceof BigDecimal d) {
      return d.unscaledValue().longValueExact();
    }
    if (v instanceof LocalTime t) {
      return t.toNanoOfDay() / 1_000;
    }
    if (v instanceof Instant i) {
      return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000);
    }
    if (v instanceof LocalDateTime t) {
      Instant i = t.toInstant(ZoneOffset.UTC);
      TimeUnit unit = ((TimestampLogicalTypeAnnotation) logical).getUnit();
      return switch (unit) {
        case MILLIS ->
            Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000L), i.getNano() / 1_000_000);
        case MICROS ->
            Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000);
        case NANOS ->
            Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
      };
    }
    return ((Number) v).longValue();
  }

  private static Binary fixed(LogicalTypeAnnotation logical, Object v) {
    if (v instanceof UUID u) {
      ByteBuffer b = ByteBuffer.allocate(16);
      b.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
      return Binary.fromConstantByteArray(b.array());
    }
    if (logical instanceof DecimalLogicalTypeAnnotation && v instanceof BigDecimal d) {
      // Sixteen bytes of big-endian two's complement, sign-extended.
      byte[] raw = d.unscaledValue().toByteArray();
      byte[] out = new byte[16];
      byte fill = raw[0] < 0 ? (byte) 0xff : 0;
      java.util.Arrays.fill(out, 0, 16 - raw.length, fill);
      System.arraycopy(raw, 0, out, 16 - raw.length, raw.length);
      return Binary.fromConstantByteArray(out);
    }
    throw new IllegalArgumentException(
        "no inline value of "
            + v.getClass().getSimpleName()
            + " is written as a fixed-length array");
  }
}
