package dev.moraine.parquet;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.ducklake.types.DuckLakeType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet fields DuckDB 1.5.5 writes for a table's columns (probed with {@code parquet_schema}
 * on the files of stock DuckLake's flush): every field optional and carrying its column id as field
 * id; the integers as INT32 or INT64 with their width and sign; decimals as INT32 up to precision
 * 9, INT64 up to 18 and a 16-byte fixed array beyond; dates as days; times and timestamps in
 * microseconds (a {@code timestamp_s} too), a {@code timestamp_ms} in milliseconds and a {@code
 * timestamp_ns} in nanoseconds, adjusted to UTC for {@code timestamptz} only; a {@code uuid} as 16
 * bytes; a list as {@code list}/{@code element}, a map as {@code key_value}/{@code key} (required)
 * and {@code value}. Stateless.
 */
final class FlushSchema {
  private FlushSchema() {}

  /**
   * The fields of the top-level columns of {@code columns} (one table's columns at one schema
   * version, members included), in column order.
   *
   * @throws IllegalArgumentException if a column's type has no inline form
   */
  static List<Type> fields(List<ColumnInfo> columns) {
    List<Type> out = new ArrayList<>();
    for (ColumnInfo c : children(columns, null)) {
      out.add(field(c, columns, Repetition.OPTIONAL, c.name()));
    }
    return out;
  }

  /** The columns whose parent is {@code parent} (the top-level ones for null), in column order. */
  static List<ColumnInfo> children(List<ColumnInfo> columns, Long parent) {
    return columns.stream()
        .filter(
            c ->
                parent == null
                    ? c.parentColumn().isEmpty()
                    : c.parentColumn().isPresent() && c.parentColumn().getAsLong() == parent)
        .sorted(Comparator.comparing(ColumnInfo::columnOrder, Long::compareUnsigned))
        .toList();
  }

  private static Type field(
      ColumnInfo column, List<ColumnInfo> columns, Repetition repetition, String name) {
    int id = Math.toIntExact(column.columnId());
    DuckLakeType type = DuckLakeType.parse(column.type());
    List<ColumnInfo> members = children(columns, column.columnId());
    return switch (type.id()) {
      case STRUCT -> {
        List<Type> fields = new ArrayList<>();
        for (ColumnInfo m : members) {
          fields.add(field(m, columns, Repetition.OPTIONAL, m.name()));
        }
        yield new GroupType(repetition, name, fields).withId(id);
      }
      case LIST -> {
        if (members.size() != 1) {
          throw new IllegalArgumentException("list column '" + column.name() + "' has no element");
        }
        Type element = field(members.get(0), columns, Repetition.OPTIONAL, "element");
        yield Types.buildGroup(repetition)
            .as(LogicalTypeAnnotation.listType())
            .addField(new GroupType(Repetition.REPEATED, "list", element))
            .id(id)
            .named(name);
      }
      case MAP -> {
        if (members.size() != 2) {
          throw new IllegalArgumentException(
              "map column '" + column.name() + "' has no key and value");
        }
        Type key = field(members.get(0), columns, Repetition.REQUIRED, "key");
        Type value = field(members.get(1), columns, Repetition.OPTIONAL, "value");
        yield Types.buildGroup(repetition)
            .as(LogicalTypeAnnotation.mapType())
            .addField(new GroupType(Repetition.REPEATED, "key_value", key, value))
            .id(id)
            .named(name);
      }
      default -> primitive(type, column.name(), repetition, name, id);
    };
  }

  private static Type primitive(
      DuckLakeType type, String column, Repetition repetition, String name, int id) {
    Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> b =
        switch (type.id()) {
          case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition);
          case INT8 -> int32(repetition, 8, true);
          case INT16 -> int32(repetition, 16, true);
          case INT32 -> int32(repetition, 32, true);
          case UINT8 -> int32(repetition, 8, false);
          case UINT16 -> int32(repetition, 16, false);
          case UINT32 -> int32(repetition, 32, false);
          case INT64 ->
              Types.primitive(PrimitiveTypeName.INT64, repetition)
                  .as(LogicalTypeAnnotation.intType(64, true));
          case UINT64 ->
              Types.primitive(PrimitiveTypeName.INT64, repetition)
                  .as(LogicalTypeAnnotation.intType(64, false));
          case FLOAT32 -> Types.primitive(PrimitiveTypeName.FLOAT, repetition);
          case FLOAT64 -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition);
          case VARCHAR ->
              Types.primitive(PrimitiveTypeName.BINARY, repetition)
                  .as(LogicalTypeAnnotation.stringType());
          case BLOB -> Types.primitive(PrimitiveTypeName.BINARY, repetition);
          case DECIMAL -> decimal(repetition, type.precision(), type.scale());
          case DATE ->
              Types.primitive(PrimitiveTypeName.INT32, repetition)
                  .as(LogicalTypeAnnotation.dateType());
          case TIME ->
              Types.primitive(PrimitiveTypeName.INT64, repetition)
                  .as(LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS));
          case TIMESTAMP_S, TIMESTAMP -> timestamp(repetition, false, TimeUnit.MICROS);
          case TIMESTAMP_MS -> timestamp(repetition, false, TimeUnit.MILLIS);
          case TIMESTAMP_NS -> timestamp(repetition, false, TimeUnit.NANOS);
          case TIMESTAMPTZ -> timestamp(repetition, true, TimeUnit.MICROS);
          case UUID ->
              Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                  .length(16)
                  .as(LogicalTypeAnnotation.uuidType());
          default ->
              throw new IllegalArgumentException(
                  "column '"
                      + column
                      + "' has type "
                      + type.format()
                      + ", which has no inline form");
        };
    return b.id(id).named(name);
  }

  private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> int32(
      Repetition repetition, int bits, boolean signed) {
    return Types.primitive(PrimitiveTypeName.INT32, repetition)
        .as(LogicalTypeAnnotation.intType(bits, signed));
  }

  private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> timestamp(
      Repetition repetition, boolean utc, TimeUnit unit) {
    return Types.primitive(PrimitiveTypeName.INT64, repetition)
        .as(LogicalTypeAnnotation.timestampType(utc, unit));
  }

  private static Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> decimal(
      Repetition repetition, int precision, int scale) {
    Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> b =
        precision <= 9
            ? Types.primitive(PrimitiveTypeName.INT32, repetition)
            : precision <= 18
                ? Types.primitive(PrimitiveTypeName.INT64, repetition)
                : Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(16);
    return b.as(LogicalTypeAnnotation.decimalType(scale, precision));
  }
}
