package dev.moraine.core.rows;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The DuckDB type of one column of an inlined-data table, as stock DuckLake declares it (a DuckLake
 * {@code int32} column is an {@code INTEGER} there, a {@code struct} a {@code STRUCT(...)}), with
 * the SQL literal of a cell in the form the inline chunks hand it out ({@link
 * dev.moraine.core.catalog.model.InlinedRows.Row#values()}: a date as its day number, a {@code
 * timestamptz} as microseconds, an unsigned integer as the signed value of its bits).
 *
 * <p>A literal is plain SQL text meant for a column of exactly this type: DuckDB casts it on
 * insert, so a date is written as the quoted text {@code '2024-05-01'} and a struct as {@code {'a':
 * 1, 'b': 'x'}}.
 */
public sealed interface DuckDbType {

  /** The type as a column declaration writes it, for example {@code DECIMAL(18,3)}. */
  String ddl();

  /**
   * The SQL literal of one cell of this type, {@code NULL} for null.
   *
   * @throws IllegalArgumentException if the cell is not a value of this type
   */
  String literal(Object cell);

  /** A flat (non-nested) type. */
  record Flat(Kind kind, String ddl) implements DuckDbType {
    public Flat {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(ddl, "ddl");
    }

    @Override
    public String literal(Object cell) {
      if (cell == null) {
        return "NULL";
      }
      return switch (kind) {
        case BOOLEAN -> String.valueOf((Boolean) cell).toUpperCase(java.util.Locale.ROOT);
        case SIGNED -> Long.toString(((Number) cell).longValue());
        case UNSIGNED_8 -> Long.toString(((Number) cell).longValue() & 0xFFL);
        case UNSIGNED_16 ->
            Long.toString(cell instanceof Character c ? c : ((Number) cell).longValue() & 0xFFFFL);
        case UNSIGNED_32 -> Long.toString(((Number) cell).longValue() & 0xFFFF_FFFFL);
        case UNSIGNED_64 -> Long.toUnsignedString(((Number) cell).longValue());
        case FLOATING -> quote(Double.toString(((Number) cell).doubleValue()));
        case TEXT, UUID -> quote((String) cell);
        case BLOB -> blob((byte[]) cell);
        case DECIMAL -> quote(((BigDecimal) cell).toPlainString());
        case DATE -> quote(LocalDate.ofEpochDay(((Number) cell).longValue()).toString());
        case TIME ->
            quote(TIME_TEXT.format(LocalTime.ofNanoOfDay(((Number) cell).longValue() * 1000)));
        case TIMESTAMP -> quote(TIMESTAMP_TEXT.format((LocalDateTime) cell));
        case TIMESTAMPTZ -> {
          long micros = ((Number) cell).longValue();
          yield quote(
              Instant.ofEpochSecond(
                      Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000)
                  .toString());
        }
      };
    }
  }

  /** A struct of named members, in field order. */
  record Struct(List<Member> members) implements DuckDbType {
    public Struct {
      members = List.copyOf(members);
    }

    @Override
    public String ddl() {
      return "STRUCT("
          + members.stream()
              .map(m -> identifier(m.name()) + ' ' + m.type().ddl())
              .collect(Collectors.joining(", "))
          + ')';
    }

    @Override
    public String literal(Object cell) {
      if (cell == null) {
        return "NULL";
      }
      Map<?, ?> values = (Map<?, ?>) cell;
      List<String> parts = new ArrayList<>(members.size());
      for (Member m : members) {
        parts.add(quote(m.name()) + ": " + m.type().literal(values.get(m.name())));
      }
      return '{' + String.join(", ", parts) + '}';
    }
  }

  /** A member of a struct. */
  record Member(String name, DuckDbType type) {}

  /** A list of elements of one type. */
  record ListOf(DuckDbType element) implements DuckDbType {
    @Override
    public String ddl() {
      return element.ddl() + "[]";
    }

    @Override
    public String literal(Object cell) {
      if (cell == null) {
        return "NULL";
      }
      return '['
          + ((List<?>) cell).stream().map(element::literal).collect(Collectors.joining(", "))
          + ']';
    }
  }

  /** A map from keys of one type to values of another. */
  record MapOf(DuckDbType key, DuckDbType value) implements DuckDbType {
    @Override
    public String ddl() {
      return "MAP(" + key.ddl() + ", " + value.ddl() + ')';
    }

    @Override
    public String literal(Object cell) {
      if (cell == null) {
        return "NULL";
      }
      List<String> parts = new ArrayList<>();
      ((Map<?, ?>) cell).forEach((k, v) -> parts.add(key.literal(k) + ": " + value.literal(v)));
      return "MAP {" + String.join(", ", parts) + '}';
    }
  }

  /**
   * A column whose Arrow field this library does not know how to declare in DuckDB (a layout no
   * writer of inline chunks is known to use); declaring or writing it fails.
   */
  record Unsupported(String arrowType) implements DuckDbType {
    @Override
    public String ddl() {
      throw new IllegalArgumentException(
          "no DuckDB type for an inlined column stored as Arrow " + arrowType);
    }

    @Override
    public String literal(Object cell) {
      throw new IllegalArgumentException(
          "no DuckDB literal for an inlined column stored as Arrow " + arrowType);
    }
  }

  /** How a flat type's literal is written. */
  enum Kind {
    BOOLEAN,
    SIGNED,
    UNSIGNED_8,
    UNSIGNED_16,
    UNSIGNED_32,
    UNSIGNED_64,
    FLOATING,
    TEXT,
    UUID,
    BLOB,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMPTZ
  }

  /** A time of day with every fraction digit, as DuckDB parses it. */
  DateTimeFormatter TIME_TEXT = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

  /** A timestamp without zone with every fraction digit (nanoseconds), as DuckDB parses it. */
  DateTimeFormatter TIMESTAMP_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS");

  /** {@code BIGINT}: the row id, snapshot and file id columns of the inlined tables. */
  DuckDbType BIGINT = new Flat(Kind.SIGNED, "BIGINT");

  /**
   * The DuckDB type of an inline chunk's field (RFC 0002 §9.3 gives the layout). Text fields are
   * {@code VARCHAR} unless {@code isUuid} says the column, found by its {@code PARQUET:field_id},
   * is a DuckLake {@code uuid} (the chunks keep a uuid as its text).
   */
  static DuckDbType of(Field field, java.util.function.LongPredicate isUuid) {
    ArrowType t = field.getType();
    if (t instanceof ArrowType.Bool) {
      return new Flat(Kind.BOOLEAN, "BOOLEAN");
    }
    if (t instanceof ArrowType.Int i) {
      if (i.getIsSigned()) {
        return switch (i.getBitWidth()) {
          case 8 -> new Flat(Kind.SIGNED, "TINYINT");
          case 16 -> new Flat(Kind.SIGNED, "SMALLINT");
          case 32 -> new Flat(Kind.SIGNED, "INTEGER");
          default -> new Flat(Kind.SIGNED, "BIGINT");
        };
      }
      return switch (i.getBitWidth()) {
        case 8 -> new Flat(Kind.UNSIGNED_8, "UTINYINT");
        case 16 -> new Flat(Kind.UNSIGNED_16, "USMALLINT");
        case 32 -> new Flat(Kind.UNSIGNED_32, "UINTEGER");
        default -> new Flat(Kind.UNSIGNED_64, "UBIGINT");
      };
    }
    if (t instanceof ArrowType.FloatingPoint f) {
      return new Flat(
          Kind.FLOATING, f.getPrecision() == FloatingPointPrecision.SINGLE ? "FLOAT" : "DOUBLE");
    }
    if (t instanceof ArrowType.Utf8) {
      String id = field.getMetadata().get("PARQUET:field_id");
      boolean uuid = id != null && isUuid.test(Long.parseLong(id));
      return uuid ? new Flat(Kind.UUID, "UUID") : new Flat(Kind.TEXT, "VARCHAR");
    }
    if (t instanceof ArrowType.Binary) {
      return new Flat(Kind.BLOB, "BLOB");
    }
    if (t instanceof ArrowType.Decimal d) {
      return new Flat(Kind.DECIMAL, "DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")");
    }
    if (t instanceof ArrowType.Date) {
      return new Flat(Kind.DATE, "DATE");
    }
    if (t instanceof ArrowType.Time) {
      return new Flat(Kind.TIME, "TIME");
    }
    if (t instanceof ArrowType.Timestamp ts) {
      if (ts.getTimezone() != null) {
        return new Flat(Kind.TIMESTAMPTZ, "TIMESTAMPTZ");
      }
      return switch (ts.getUnit()) {
        case SECOND -> new Flat(Kind.TIMESTAMP, "TIMESTAMP_S");
        case MILLISECOND -> new Flat(Kind.TIMESTAMP, "TIMESTAMP_MS");
        case MICROSECOND -> new Flat(Kind.TIMESTAMP, "TIMESTAMP");
        case NANOSECOND -> new Flat(Kind.TIMESTAMP, "TIMESTAMP_NS");
      };
    }
    if (t instanceof ArrowType.Map) {
      List<Field> entries = field.getChildren().get(0).getChildren();
      return new MapOf(of(entries.get(0), isUuid), of(entries.get(1), isUuid));
    }
    if (t instanceof ArrowType.List) {
      return new ListOf(of(field.getChildren().get(0), isUuid));
    }
    if (t instanceof ArrowType.Struct) {
      List<Member> members = new ArrayList<>();
      for (Field child : field.getChildren()) {
        members.add(new Member(child.getName(), of(child, isUuid)));
      }
      return new Struct(members);
    }
    return new Unsupported(t.toString());
  }

  /** A SQL string literal. */
  static String quote(String text) {
    return '\'' + text.replace("'", "''") + '\'';
  }

  /** A SQL identifier, double-quoted. */
  static String identifier(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static String blob(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 4 + 10);
    String hex = HexFormat.of().withUpperCase().formatHex(bytes);
    out.append('\'');
    for (int i = 0; i < hex.length(); i += 2) {
      out.append("\\x").append(hex, i, i + 2);
    }
    return out.append("'::BLOB").toString();
  }
}
