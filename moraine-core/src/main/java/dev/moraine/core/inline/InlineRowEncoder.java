package dev.moraine.core.inline;

import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
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
 * <p>The column types it can inline, their Arrow types and the Java values they take are {@link
 * InlineColumnType}'s and {@link InlineValues}'; the statistics texts {@link InlineStatText}'s.
 * Stateless.
 */
public final class InlineRowEncoder {
  private InlineRowEncoder() {}

  /**
   * The Arrow schema record and chunk body of {@code rows}, already checked by {@link
   * InlineValues#check}.
   */
  public record Encoded(byte[] schema, byte[] body) {}

  /** The schema record and chunk body of checked rows; {@code types} as the columns'. */
  public static Encoded encode(
      List<ColumnValue> columns, List<InlineColumnType> types, List<List<Object>> rows) {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      fields.add(field(columns.get(c), types.get(c)));
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

  /** A column's field: its name, nullability, Arrow type, id, and a struct's member fields. */
  private static Field field(ColumnValue c, InlineColumnType type) {
    if (type.kind() == InlineColumnType.Kind.MAP) {
      Field key = field(type.members().get(0).column(), type.members().get(0).type());
      Field value = field(type.members().get(1).column(), type.members().get(1).type());
      Field entries =
          new Field(
              "entries",
              FieldType.notNullable(ArrowType.Struct.INSTANCE),
              List.of(
                  new Field(
                      "key",
                      new FieldType(false, key.getType(), null, key.getFieldType().getMetadata()),
                      null),
                  new Field("value", value.getFieldType(), null)));
      return new Field(c.getColumnName(), fieldType(c, type), List.of(entries));
    }
    List<Field> children = null;
    if (!type.members().isEmpty()) {
      children = new ArrayList<>();
      for (InlineColumnType.Member m : type.members()) {
        Field child = field(m.column(), m.type());
        if (type.kind() == InlineColumnType.Kind.LIST) {
          // DuckDB's Arrow export names a list's child "l"; the element column's id stays.
          child = new Field("l", child.getFieldType(), child.getChildren());
        }
        children.add(child);
      }
    }
    return new Field(c.getColumnName(), fieldType(c, type), children);
  }

  /** A column's field type: its nullability, Arrow type, and its id as {@code PARQUET:field_id}. */
  private static FieldType fieldType(ColumnValue c, InlineColumnType type) {
    return new FieldType(
        c.getNullsAllowed(),
        type.arrow(),
        null,
        Map.of("PARQUET:field_id", Long.toUnsignedString(c.getColumnId())));
  }

  private static void set(FieldVector vector, int r, Object v) {
    if (vector instanceof MapVector map) {
      if (v == null) {
        map.setNull(r);
        return;
      }
      // Rows are written in order, so each map's entries follow the previous row's.
      StructVector entries = (StructVector) map.getDataVector();
      FieldVector keys = entries.getChild("key");
      FieldVector values = entries.getChild("value");
      int i = map.startNewValue(r);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        entries.setIndexDefined(i);
        set(keys, i, e.getKey());
        set(values, i, e.getValue());
        i++;
      }
      map.endValue(r, ((Map<?, ?>) v).size());
      return;
    }
    if (vector instanceof ListVector list) {
      if (v == null) {
        list.setNull(r);
        return;
      }
      // Rows are written in order, so each list's elements follow the previous row's.
      List<?> elements = (List<?>) v;
      int start = list.startNewValue(r);
      FieldVector data = list.getDataVector();
      for (int i = 0; i < elements.size(); i++) {
        set(data, start + i, elements.get(i));
      }
      list.endValue(r, elements.size());
      return;
    }
    if (vector instanceof StructVector struct) {
      // A null struct still takes a slot in every member vector: its members are null there.
      Map<?, ?> members = (Map<?, ?>) v;
      if (v == null) {
        struct.setNull(r);
      } else {
        struct.setIndexDefined(r);
      }
      for (FieldVector child : struct.getChildrenFromFields()) {
        set(child, r, members == null ? null : members.get(child.getName()));
      }
      return;
    }
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
      t.setSafe(r, v.toString().getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof DecimalVector t) {
      t.setSafe(r, (BigDecimal) v);
    } else if (vector instanceof DateDayVector t) {
      t.setSafe(r, Math.toIntExact(((LocalDate) v).toEpochDay()));
    } else if (vector instanceof TimeMicroVector t) {
      t.setSafe(r, ((LocalTime) v).toNanoOfDay() / 1000);
    } else if (vector instanceof TimeStampSecVector t) {
      t.setSafe(r, ((LocalDateTime) v).toEpochSecond(ZoneOffset.UTC));
    } else if (vector instanceof TimeStampMilliVector t) {
      t.setSafe(r, epochCount((LocalDateTime) v, 1_000));
    } else if (vector instanceof TimeStampMicroVector t) {
      t.setSafe(r, epochCount((LocalDateTime) v, 1_000_000));
    } else if (vector instanceof TimeStampNanoVector t) {
      t.setSafe(r, InlineValues.epochNanos((LocalDateTime) v));
    } else if (vector instanceof TimeStampMicroTZVector t) {
      t.setSafe(r, epochCount(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC), 1_000_000));
    } else if (vector instanceof VarBinaryVector t) {
      t.setSafe(r, (byte[]) v);
    } else {
      throw new IllegalStateException("no setter for " + vector.getClass().getSimpleName());
    }
  }

  /**
   * A timestamp as a count of {@code perSecond}ths of a second since 1970-01-01 00:00; exact for
   * the values {@link InlineValues} lets through (whole units, years 1 to 9999).
   */
  private static long epochCount(LocalDateTime t, long perSecond) {
    return t.toEpochSecond(ZoneOffset.UTC) * perSecond + t.getNano() / (1_000_000_000L / perSecond);
  }

  /**
   * A column's table statistics after inlining {@code values} (checked, one per row), merged into
   * what the table had ({@code before}, possibly absent): nulls and NaNs present if either side has
   * them; minimum and maximum over both, compared by the column's type and written as DuckLake
   * writes them ({@link InlineStatText}).
   */
  public static TableColumnStatsValue mergeStats(
      long tableId,
      ColumnValue column,
      InlineColumnType type,
      List<Object> values,
      TableColumnStatsValue before) {
    TableColumnStatsValue.Builder b =
        before != null
            ? before.toBuilder()
            : TableColumnStatsValue.newBuilder()
                .setTableId(tableId)
                .setColumnId(column.getColumnId());
    boolean anyNull = values.stream().anyMatch(v -> v == null);
    b.setContainsNull(
        (before != null && before.hasContainsNull() && before.getContainsNull()) || anyNull);
    if (type.floating()) {
      // Stock DuckLake's inlined insert does not tell whether a NaN is among its values: the
      // column's contains_nan becomes unknown (NULL), even where a file had set it, and DuckDB then
      // keeps no bounds for the column.
      b.clearContainsNan();
    }
    for (Object v : values) {
      if (v == null
          || (v instanceof Float f && f.isNaN())
          || (v instanceof Double d && d.isNaN())) {
        continue;
      }
      String text = InlineStatText.of(type, v);
      if (!b.hasMinValue() || InlineStatText.compare(type, text, b.getMinValue()) < 0) {
        b.setMinValue(text);
      }
      if (!b.hasMaxValue() || InlineStatText.compare(type, text, b.getMaxValue()) > 0) {
        b.setMaxValue(text);
      }
    }
    return b.build();
  }
}
