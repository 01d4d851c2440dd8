package dev.moraine.core.dump;

import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.TableInfo;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One inlined cell as JSON, by its Arrow type (docs/dump-format.md §6.3): a null is null; integers
 * of every width and signedness, booleans, strings, decimals, dates, times, timestamps and binaries
 * have a form, a struct whose members have one is an object keyed by member name, and a list whose
 * element has one an array; a value of any other type is refused.
 */
final class InlinedValue {
  private InlinedValue() {}

  /**
   * @throws UnrenderableValueException for a type without a JSON form in version 1 of the format
   */
  static Object json(TableInfo table, InlinedRows.Row row, int column) {
    Field field = row.fields().get(column);
    Object json = json(field, row.values().get(column));
    if (json == NO_FORM) {
      throw new UnrenderableValueException(
          "table "
              + table.name()
              + " (id "
              + Long.toUnsignedString(table.tableId())
              + "), inlined row "
              + Long.toUnsignedString(row.rowId())
              + ", column "
              + row.columns().get(column)
              + ": Arrow type "
              + unrenderable(field)
              + " has no rendering in "
              + CatalogDump.FORMAT);
    }
    return json;
  }

  /** Stands for a value without a form while the rendering unwinds. */
  private static final Object NO_FORM = new Object();

  /**
   * The first type in {@code field} (itself or, for a struct or list, a child's) without a form.
   */
  private static ArrowType unrenderable(Field field) {
    if (field.getType() instanceof ArrowType.Struct
        || field.getType() instanceof ArrowType.List
        || field.getType() instanceof ArrowType.Map) {
      for (Field child : field.getChildren()) {
        ArrowType inner = unrenderable(child);
        if (inner != null) {
          return inner;
        }
      }
      return null;
    }
    return field.getType();
  }

  /**
   * A cell's JSON form, or {@link #NO_FORM}. A struct (a map from member name to cell) is an object
   * from member name to the member's form; a list an array of its elements' forms.
   */
  private static Object json(Field field, Object cell) {
    ArrowType type = field.getType();
    // A null is null whatever the column's type, so a null in a column of a type without a form
    // (a float, say) does not fail the dump; the Rust dump reads it the same way.
    if (cell == null) {
      return null;
    }
    if (type instanceof ArrowType.Struct && cell instanceof Map<?, ?> members) {
      Obj out = Obj.of();
      for (Field child : field.getChildren()) {
        Object member = json(child, members.get(child.getName()));
        if (member == NO_FORM) {
          return NO_FORM;
        }
        out.with(child.getName(), member);
      }
      return out;
    }
    if (type instanceof ArrowType.Map && cell instanceof Map<?, ?> entries) {
      // An array of the entries, each an object of the entry struct's two fields.
      Field entry = field.getChildren().get(0);
      Field key = entry.getChildren().get(0);
      Field value = entry.getChildren().get(1);
      List<Object> out = new ArrayList<>(entries.size());
      for (Map.Entry<?, ?> e : entries.entrySet()) {
        Object k = json(key, e.getKey());
        Object v = json(value, e.getValue());
        if (k == NO_FORM || v == NO_FORM) {
          return NO_FORM;
        }
        out.add(Obj.of().with(key.getName(), k).with(value.getName(), v));
      }
      return out;
    }
    if (type instanceof ArrowType.List && cell instanceof List<?> elements) {
      List<Object> out = new ArrayList<>(elements.size());
      for (Object e : elements) {
        Object element = json(field.getChildren().get(0), e);
        if (element == NO_FORM) {
          return NO_FORM;
        }
        out.add(element);
      }
      return out;
    }
    if (type instanceof ArrowType.Int integer) {
      return integer.getIsSigned() ? signed(cell) : unsigned(cell, integer.getBitWidth());
    }
    if (type instanceof ArrowType.Bool) {
      return (Boolean) cell;
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return cell.toString();
    }
    if (type instanceof ArrowType.Decimal) {
      return ((BigDecimal) cell).toPlainString();
    }
    if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      return ((Number) cell).longValue();
    }
    if (type instanceof ArrowType.Time time) {
      // Arrow Java hands out a millisecond time as a LocalDateTime on 1970-01-01, the others as
      // the stored count.
      return cell instanceof LocalDateTime t
          ? t.toLocalTime().toNanoOfDay() / perNano(time.getUnit())
          : ((Number) cell).longValue();
    }
    if (type instanceof ArrowType.Timestamp timestamp) {
      // A timestamp without a zone comes as a LocalDateTime, one with a zone as the stored count.
      if (cell instanceof LocalDateTime t) {
        long perSecond = 1_000_000_000L / perNano(timestamp.getUnit());
        return t.toEpochSecond(ZoneOffset.UTC) * perSecond
            + t.getNano() / perNano(timestamp.getUnit());
      }
      return ((Number) cell).longValue();
    }
    if (type instanceof ArrowType.Binary || type instanceof ArrowType.LargeBinary) {
      return HexFormat.of().formatHex((byte[]) cell);
    }
    return NO_FORM;
  }

  /** Nanoseconds in one of the unit. */
  private static long perNano(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> 1_000_000_000L;
      case MILLISECOND -> 1_000_000L;
      case MICROSECOND -> 1_000L;
      case NANOSECOND -> 1L;
    };
  }

  private static Object signed(Object cell) {
    return ((Number) cell).longValue();
  }

  /**
   * Arrow Java hands out an unsigned cell as the signed value of the same bits (a {@code Byte},
   * {@code Character}, {@code Integer} or {@code Long}); the bits are read back unsigned.
   */
  private static Object unsigned(Object cell, int bitWidth) {
    long bits = cell instanceof Character c ? c : ((Number) cell).longValue();
    if (bitWidth < 64) {
      bits &= (1L << bitWidth) - 1;
    }
    return Obj.unsigned(bits);
  }
}
