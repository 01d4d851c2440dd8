package dev.moraine.core.catalog;

import dev.moraine.core.keyspace.Utf8Order;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Typed rows of a table as the Arrow forms of an inline chunk (RFC 0002 §9.3): one field per user
 * column, in table order, named as the column and carrying its id as {@code PARQUET:field_id}; and
 * the column statistics DuckLake derives from inlined values (null presence, NaN presence, and
 * minimum and maximum as DuckLake writes them).
 *
 * <p>The column types it can inline are listed in {@link InlineType}; any other type is refused.
 * Stateless.
 */
final class InlineRowEncoder {
  private InlineRowEncoder() {}

  /** The Arrow schema record and chunk body of {@code rows}, already checked by {@link #check}. */
  record Encoded(byte[] schema, byte[] body) {}

  /** A column type this encoder can inline, with its Arrow type. */
  enum InlineType {
    BOOLEAN("boolean", ArrowType.Bool.INSTANCE),
    INT8("int8", new ArrowType.Int(8, true)),
    INT16("int16", new ArrowType.Int(16, true)),
    INT32("int32", new ArrowType.Int(32, true)),
    INT64("int64", new ArrowType.Int(64, true)),
    UINT8("uint8", new ArrowType.Int(8, false)),
    UINT16("uint16", new ArrowType.Int(16, false)),
    UINT32("uint32", new ArrowType.Int(32, false)),
    UINT64("uint64", new ArrowType.Int(64, false)),
    FLOAT32("float32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
    FLOAT64("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
    VARCHAR("varchar", ArrowType.Utf8.INSTANCE),
    BLOB("blob", ArrowType.Binary.INSTANCE);

    final String duckLakeName;
    final ArrowType arrow;

    InlineType(String duckLakeName, ArrowType arrow) {
      this.duckLakeName = duckLakeName;
      this.arrow = arrow;
    }

    static InlineType of(ColumnValue column) {
      for (InlineType t : values()) {
        if (t.duckLakeName.equalsIgnoreCase(column.getColumnType())) {
          return t;
        }
      }
      throw new InvalidArgumentException(
          "column '"
              + column.getColumnName()
              + "' has type "
              + column.getColumnType()
              + ", which cannot be inlined (inlinable types: boolean, signed and unsigned integers"
              + " of 8 to 64 bits, float32, float64, varchar, blob)");
    }
  }

  /**
   * Checks every row against the columns: as many values as columns, each null (where the column
   * allows nulls) or of the column's Java type and range, and returns the rows' values normalised
   * (integers as {@link Long}, or {@link BigInteger} for uint64; floats as {@link Float} or {@link
   * Double}).
   *
   * @throws InvalidArgumentException for a row of the wrong width, a null in a NOT NULL column, a
   *     value of the wrong type or out of range, or a column type that cannot be inlined
   */
  static List<List<Object>> check(List<ColumnValue> columns, List<List<Object>> rows) {
    List<InlineType> types = columns.stream().map(InlineType::of).toList();
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

  private static Object value(int r, ColumnValue column, InlineType type, Object v) {
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
        switch (type) {
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

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

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

  /** The schema record and chunk body of checked rows. */
  static Encoded encode(List<ColumnValue> columns, List<List<Object>> rows) {
    List<Field> fields = new ArrayList<>();
    for (ColumnValue c : columns) {
      fields.add(
          new Field(
              c.getColumnName(),
              new FieldType(
                  c.getNullsAllowed(),
                  InlineType.of(c).arrow,
                  null,
                  Map.of("PARQUET:field_id", Long.toUnsignedString(c.getColumnId()))),
              null));
    }
    Schema schema = new Schema(fields);
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      for (int c = 0; c < columns.size(); c++) {
        FieldVector vector = root.getVector(c);
        for (int r = 0; r < rows.size(); r++) {
          set(vector, r, rows.get(r).get(c));
        }
        vector.setValueCount(rows.size());
      }
      root.setRowCount(rows.size());
      return new Encoded(InlineArrow.encodeSchema(schema), InlineArrow.encodeChunk(root));
    }
  }

  private static void set(FieldVector vector, int r, Object v) {
    if (v == null) {
      vector.setNull(r);
      return;
    }
    if (vector instanceof BitVector b) {
      b.setSafe(r, (Boolean) v ? 1 : 0);
    } else if (vector instanceof TinyIntVector t) {
      t.setSafe(r, (byte) (long) (Long) v);
    } else if (vector instanceof SmallIntVector t) {
      t.setSafe(r, (short) (long) (Long) v);
    } else if (vector instanceof IntVector t) {
      t.setSafe(r, (int) (long) (Long) v);
    } else if (vector instanceof BigIntVector t) {
      t.setSafe(r, (Long) v);
    } else if (vector instanceof UInt1Vector t) {
      t.setSafe(r, (int) (long) (Long) v);
    } else if (vector instanceof UInt2Vector t) {
      t.setSafe(r, (char) (long) (Long) v);
    } else if (vector instanceof UInt4Vector t) {
      t.setSafe(r, (int) (long) (Long) v);
    } else if (vector instanceof UInt8Vector t) {
      t.setSafe(r, ((BigInteger) v).longValue());
    } else if (vector instanceof Float4Vector t) {
      t.setSafe(r, (Float) v);
    } else if (vector instanceof Float8Vector t) {
      t.setSafe(r, (Double) v);
    } else if (vector instanceof VarCharVector t) {
      t.setSafe(r, ((String) v).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof VarBinaryVector t) {
      t.setSafe(r, (byte[]) v);
    } else {
      throw new IllegalStateException("no setter for " + vector.getClass().getSimpleName());
    }
  }

  /**
   * A column's table statistics after inlining {@code values} (checked, one per row), merged into
   * what the table had ({@code before}, possibly absent): nulls and NaNs present if either side has
   * them; minimum and maximum over both, compared by the column's type and written as DuckLake
   * writes them. Blob columns get no minimum or maximum.
   */
  static TableColumnStatsValue mergeStats(
      long tableId, ColumnValue column, List<Object> values, TableColumnStatsValue before) {
    InlineType type = InlineType.of(column);
    TableColumnStatsValue.Builder b =
        before != null
            ? before.toBuilder()
            : TableColumnStatsValue.newBuilder()
                .setTableId(tableId)
                .setColumnId(column.getColumnId());
    boolean anyNull = values.stream().anyMatch(v -> v == null);
    b.setContainsNull(
        (before != null && before.hasContainsNull() && before.getContainsNull()) || anyNull);
    if (type == InlineType.FLOAT32 || type == InlineType.FLOAT64) {
      boolean nan =
          values.stream()
              .anyMatch(v -> v instanceof Float f ? f.isNaN() : v instanceof Double d && d.isNaN());
      b.setContainsNan(
          (before != null && before.hasContainsNan() && before.getContainsNan()) || nan);
    }
    if (type == InlineType.BLOB) {
      return b.build();
    }
    for (Object v : values) {
      if (v == null
          || (v instanceof Float f && f.isNaN())
          || (v instanceof Double d && d.isNaN())) {
        continue;
      }
      String text = text(v);
      if (!b.hasMinValue() || compare(type, text, b.getMinValue()) < 0) {
        b.setMinValue(text);
      }
      if (!b.hasMaxValue() || compare(type, text, b.getMaxValue()) > 0) {
        b.setMaxValue(text);
      }
    }
    return b.build();
  }

  private static String text(Object v) {
    return String.valueOf(v);
  }

  /** Compares two statistics texts of one type; a text that does not parse sorts first. */
  private static int compare(InlineType type, String a, String b) {
    switch (type) {
      case VARCHAR:
        return Utf8Order.compare(a, b);
      case BOOLEAN:
        return Boolean.compare(Boolean.parseBoolean(a), Boolean.parseBoolean(b));
      case FLOAT32:
      case FLOAT64:
        return Double.compare(parseDouble(a), parseDouble(b));
      default:
        return parseInteger(a).compareTo(parseInteger(b));
    }
  }

  private static double parseDouble(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NEGATIVE_INFINITY;
    }
  }

  private static BigInteger parseInteger(String s) {
    try {
      return new BigInteger(s);
    } catch (NumberFormatException e) {
      return BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE);
    }
  }
}
