package dev.moraine.core.catalog.model;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One inlined cell as the Java value the inline insert verb takes for its column (RFC 0003 §3.3),
 * from the cell as Arrow Java hands it out. The Arrow type decides, except that a {@code uuid} and
 * a {@code varchar} share the Arrow type {@code Utf8}: the column's DuckLake type tells them apart.
 * A struct becomes a map from member name to member value, every member present, in field order; a
 * list a list of its elements' values. Stateless.
 */
final class InlinedCell {
  private InlinedCell() {}

  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  /**
   * The typed form of {@code raw}.
   *
   * @param columnType the column's DuckLake type, or null when the table no longer has the column
   * @throws IllegalStateException for an Arrow type no inline chunk of this format holds (the chunk
   *     was written by something else); nothing changes
   */
  static Object typed(Field field, String columnType, Object raw) {
    if (raw == null) {
      return null;
    }
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int integer) {
      return integer(integer, raw);
    }
    if (type instanceof ArrowType.Bool
        || type instanceof ArrowType.FloatingPoint
        || type instanceof ArrowType.Decimal
        || type instanceof ArrowType.Binary) {
      // Arrow Java gives Boolean, Float or Double, a BigDecimal of the field's scale, byte[].
      return raw;
    }
    if (type instanceof ArrowType.Utf8) {
      String text = raw.toString();
      return "uuid".equalsIgnoreCase(columnType) ? UUID.fromString(text) : text;
    }
    if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      return LocalDate.ofEpochDay(((Number) raw).longValue());
    }
    if (type instanceof ArrowType.Time time && time.getUnit() == TimeUnit.MICROSECOND) {
      return LocalTime.ofNanoOfDay(((Number) raw).longValue() * 1_000L);
    }
    if (type instanceof ArrowType.Timestamp timestamp) {
      return timestamp(timestamp, raw);
    }
    if (type instanceof ArrowType.Struct && raw instanceof Map<?, ?> members) {
      return struct(field, members);
    }
    if (type instanceof ArrowType.Map
        && field.getChildren().size() == 1
        && field.getChildren().get(0).getChildren().size() == 2
        && raw instanceof Map<?, ?> entries) {
      Field key = field.getChildren().get(0).getChildren().get(0);
      Field value = field.getChildren().get(0).getChildren().get(1);
      Map<Object, Object> out = new LinkedHashMap<>();
      entries.forEach((k, v) -> out.put(typed(key, null, k), typed(value, null, v)));
      return Collections.unmodifiableMap(out);
    }
    if (type instanceof ArrowType.List
        && field.getChildren().size() == 1
        && raw instanceof List<?> elements) {
      Field child = field.getChildren().get(0);
      List<Object> out = new ArrayList<>(elements.size());
      for (Object e : elements) {
        out.add(typed(child, null, e));
      }
      return Collections.unmodifiableList(out);
    }
    throw new IllegalStateException(
        "inlined column '" + field.getName() + "' has Arrow type " + type + ", not an inline one");
  }

  /**
   * A struct as the verb takes it: a map from member name to typed value holding every member in
   * field order. Arrow Java's map leaves out a null member; it comes back as null. A member is
   * never a {@code uuid} (the verb does not inline one), so its own type is not needed.
   */
  private static Map<String, Object> struct(Field field, Map<?, ?> members) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field child : field.getChildren()) {
      out.put(child.getName(), typed(child, null, members.get(child.getName())));
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * A signed integer or an unsigned one below 64 bits as a {@code Long}; a {@code uint64} as a
   * {@code BigInteger}. Arrow Java gives an unsigned cell as the signed value of the same bits (a
   * {@code Byte}, {@code Character}, {@code Integer} or {@code Long}).
   */
  private static Object integer(ArrowType.Int integer, Object raw) {
    long bits = raw instanceof Character c ? c : ((Number) raw).longValue();
    if (integer.getIsSigned()) {
      return bits;
    }
    if (integer.getBitWidth() < 64) {
      return bits & ((1L << integer.getBitWidth()) - 1);
    }
    BigInteger value = BigInteger.valueOf(bits);
    return bits < 0 ? value.add(TWO_TO_64) : value;
  }

  /**
   * A timestamp without a zone comes as a {@code LocalDateTime} and stays one; one with a zone
   * comes as the stored count of its unit since the epoch and becomes an {@code Instant}.
   */
  private static Object timestamp(ArrowType.Timestamp timestamp, Object raw) {
    if (timestamp.getTimezone() == null) {
      return (LocalDateTime) raw;
    }
    long count = ((Number) raw).longValue();
    return switch (timestamp.getUnit()) {
      case SECOND -> Instant.ofEpochSecond(count);
      case MILLISECOND -> Instant.ofEpochMilli(count);
      case MICROSECOND ->
          Instant.ofEpochSecond(Math.floorDiv(count, 1_000_000L))
              .plusNanos(Math.floorMod(count, 1_000_000L) * 1_000L);
      case NANOSECOND ->
          Instant.ofEpochSecond(Math.floorDiv(count, 1_000_000_000L))
              .plusNanos(Math.floorMod(count, 1_000_000_000L));
    };
  }
}
