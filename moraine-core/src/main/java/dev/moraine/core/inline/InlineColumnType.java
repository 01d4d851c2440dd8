package dev.moraine.core.inline;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.ducklake.types.DuckLakeType;
import dev.moraine.ducklake.types.DuckLakeTypeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The type of a column as inline chunks hold it (RFC 0002 §9.3): which kind of value it takes and
 * the Arrow type its field has. The Arrow types are the ones DuckDB's Arrow export gives the same
 * DuckLake types with its default settings, the form inlined data takes on the SQL path: decimals
 * as 128-bit decimals of the column's precision and scale, dates as days, times as microseconds,
 * timestamps in their own unit (a {@code timestamptz} in microseconds with the zone {@code UTC}), a
 * {@code uuid} as its text, and a {@code struct} as an Arrow struct whose children are its member
 * columns in column order, each carrying its own column id as {@code PARQUET:field_id}.
 *
 * <p>A {@code list} is an Arrow list whose one child, named {@code l} as DuckDB's export names it,
 * is the element column with its id. A {@code map} is an Arrow map whose one child, a non-null
 * struct {@code entries} without an id, holds the key column (non-null) and the value column, each
 * with its id, named {@code key} and {@code value} as DuckDB's export names them.
 *
 * <p>A struct, list or map inlines when every member (a list's element, a map's key and value) is
 * of a flat inlinable type other than {@code uuid}: nesting inside one of them is refused.
 *
 * @param precision a decimal's precision, 0 for other kinds
 * @param scale a decimal's scale, 0 for other kinds
 * @param members a struct's member columns in column order, a list's element column, a map's key
 *     and value columns; empty for other kinds
 */
public record InlineColumnType(Kind kind, int precision, int scale, List<Member> members) {
  public InlineColumnType {
    members = List.copyOf(members);
  }

  /** A member column of a struct and its (flat) inline type. */
  record Member(ColumnValue column, InlineColumnType type) {}

  /** The kinds of column an inline chunk can hold. */
  enum Kind {
    BOOLEAN,
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
    BLOB,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP_S,
    TIMESTAMP_MS,
    TIMESTAMP,
    TIMESTAMP_NS,
    TIMESTAMPTZ,
    UUID,
    STRUCT,
    LIST,
    MAP
  }

  /** The zone a {@code timestamptz} field names. */
  static final String UTC = "UTC";

  /**
   * The inline type of a top-level column of a table whose live columns are {@code tableColumns}
   * (nested member columns included: a struct's members are looked up among them).
   *
   * @throws InvalidArgumentException if the column's type cannot be inlined
   */
  public static InlineColumnType of(ColumnValue column, Collection<ColumnValue> tableColumns) {
    InlineColumnType type = flatOrNested(column);
    if (type.kind != Kind.STRUCT && type.kind != Kind.LIST && type.kind != Kind.MAP) {
      return type;
    }
    List<ColumnValue> children = new ArrayList<>();
    for (ColumnValue c : tableColumns) {
      if (c.hasParentColumn() && c.getParentColumn() == column.getColumnId()) {
        children.add(c);
      }
    }
    children.sort(Comparator.comparing(ColumnValue::getColumnOrder, Long::compareUnsigned));
    List<Member> members = new ArrayList<>(children.size());
    for (ColumnValue child : children) {
      InlineColumnType memberType = flatOrNested(child);
      if (memberType.kind == Kind.STRUCT
          || memberType.kind == Kind.LIST
          || memberType.kind == Kind.MAP
          || memberType.kind == Kind.UUID) {
        throw new InvalidArgumentException(
            "column '"
                + column.getColumnName()
                + "' is a "
                + type.kind.name().toLowerCase(java.util.Locale.ROOT)
                + " with member '"
                + child.getColumnName()
                + "' of type "
                + child.getColumnType()
                + ", which cannot be inlined (a struct, list or map inlines with members of"
                + " flat types other than uuid)");
      }
      members.add(new Member(child, memberType));
    }
    if (members.isEmpty()
        || (type.kind == Kind.LIST && members.size() != 1)
        || (type.kind == Kind.MAP && members.size() != 2)) {
      throw refused(column);
    }
    return new InlineColumnType(type.kind, 0, 0, members);
  }

  /** The type of one column by its own type name; a struct without its members. */
  private static InlineColumnType flatOrNested(ColumnValue column) {
    DuckLakeType type;
    try {
      type = DuckLakeType.parse(column.getColumnType());
    } catch (DuckLakeTypeParseException e) {
      throw refused(column);
    }
    Kind kind =
        switch (type.id()) {
          case BOOLEAN -> Kind.BOOLEAN;
          case INT8 -> Kind.INT8;
          case INT16 -> Kind.INT16;
          case INT32 -> Kind.INT32;
          case INT64 -> Kind.INT64;
          case UINT8 -> Kind.UINT8;
          case UINT16 -> Kind.UINT16;
          case UINT32 -> Kind.UINT32;
          case UINT64 -> Kind.UINT64;
          case FLOAT32 -> Kind.FLOAT32;
          case FLOAT64 -> Kind.FLOAT64;
          case VARCHAR -> Kind.VARCHAR;
          case BLOB -> Kind.BLOB;
          case DECIMAL -> Kind.DECIMAL;
          case DATE -> Kind.DATE;
          case TIME -> Kind.TIME;
          case TIMESTAMP_S -> Kind.TIMESTAMP_S;
          case TIMESTAMP_MS -> Kind.TIMESTAMP_MS;
          case TIMESTAMP -> Kind.TIMESTAMP;
          case TIMESTAMP_NS -> Kind.TIMESTAMP_NS;
          case TIMESTAMPTZ -> Kind.TIMESTAMPTZ;
          case UUID -> Kind.UUID;
          case STRUCT -> Kind.STRUCT;
          case LIST -> Kind.LIST;
          case MAP -> Kind.MAP;
          default -> throw refused(column);
        };
    return new InlineColumnType(kind, type.precision(), type.scale(), List.of());
  }

  private static InvalidArgumentException refused(ColumnValue column) {
    return new InvalidArgumentException(
        "column '"
            + column.getColumnName()
            + "' has type "
            + column.getColumnType()
            + ", which cannot be inlined (inlinable types: boolean, signed and unsigned integers"
            + " of 8 to 64 bits, float32, float64, varchar, blob, decimal, date, time, timestamp,"
            + " timestamp_s, timestamp_ms, timestamp_ns, timestamptz, uuid, and a struct, list"
            + " or map of flat members)");
  }

  /** The Arrow type of the column's field in an inline chunk. */
  ArrowType arrow() {
    return switch (kind) {
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case INT8 -> new ArrowType.Int(8, true);
      case INT16 -> new ArrowType.Int(16, true);
      case INT32 -> new ArrowType.Int(32, true);
      case INT64 -> new ArrowType.Int(64, true);
      case UINT8 -> new ArrowType.Int(8, false);
      case UINT16 -> new ArrowType.Int(16, false);
      case UINT32 -> new ArrowType.Int(32, false);
      case UINT64 -> new ArrowType.Int(64, false);
      case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case VARCHAR, UUID -> ArrowType.Utf8.INSTANCE;
      case BLOB -> ArrowType.Binary.INSTANCE;
      case DECIMAL -> new ArrowType.Decimal(precision, scale, 128);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case TIME -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case TIMESTAMP_S -> new ArrowType.Timestamp(TimeUnit.SECOND, null);
      case TIMESTAMP_MS -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
      case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case TIMESTAMP_NS -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
      case TIMESTAMPTZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, UTC);
      case STRUCT -> ArrowType.Struct.INSTANCE;
      case LIST -> ArrowType.List.INSTANCE;
      case MAP -> new ArrowType.Map(false);
    };
  }

  /** Whether values of this kind are floating-point (and may be NaN). */
  boolean floating() {
    return kind == Kind.FLOAT32 || kind == Kind.FLOAT64;
  }
}
