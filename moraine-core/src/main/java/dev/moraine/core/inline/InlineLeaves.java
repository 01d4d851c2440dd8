package dev.moraine.core.inline;

import dev.moraine.core.keyspace.proto.ColumnValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The leaf columns of inlined rows and each one's values, the columns stock DuckLake keeps
 * statistics for: a flat top-level column is its own leaf; a struct's leaves are its members, whose
 * value in a row where the struct is null is null (so stock DuckLake's {@code contains_null} of a
 * member turns true for a null struct); a list's leaf is its element, whose values are the elements
 * of the non-null lists (a null or empty list adds none). A map's leaves are its key and value, in
 * the same way. The struct, list or map column itself has no statistics. Stateless.
 */
public final class InlineLeaves {
  private InlineLeaves() {}

  /** A leaf column, its inline type and its value in each row, in row order. */
  public record Leaf(ColumnValue column, InlineColumnType type, List<Object> values) {}

  /** The leaves of checked rows of {@code columns}, whose inline types are {@code types}. */
  public static List<Leaf> of(
      List<ColumnValue> columns, List<InlineColumnType> types, List<List<Object>> rows) {
    List<Leaf> leaves = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      InlineColumnType type = types.get(c);
      List<Object> values = new ArrayList<>(rows.size());
      for (List<Object> row : rows) {
        values.add(row.get(c));
      }
      if (type.kind() == InlineColumnType.Kind.LIST) {
        // A null or empty list adds nothing to its element's statistics.
        List<Object> elements = new ArrayList<>();
        for (Object v : values) {
          if (v != null) {
            elements.addAll((List<?>) v);
          }
        }
        InlineColumnType.Member element = type.members().get(0);
        leaves.add(new Leaf(element.column(), element.type(), elements));
        continue;
      }
      if (type.kind() == InlineColumnType.Kind.MAP) {
        // A null or empty map adds nothing to its key's and value's statistics.
        List<Object> keys = new ArrayList<>();
        List<Object> mapValues = new ArrayList<>();
        for (Object v : values) {
          if (v != null) {
            keys.addAll(((Map<?, ?>) v).keySet());
            mapValues.addAll(((Map<?, ?>) v).values());
          }
        }
        InlineColumnType.Member key = type.members().get(0);
        InlineColumnType.Member value = type.members().get(1);
        leaves.add(new Leaf(key.column(), key.type(), keys));
        leaves.add(new Leaf(value.column(), value.type(), mapValues));
        continue;
      }
      if (type.kind() != InlineColumnType.Kind.STRUCT) {
        leaves.add(new Leaf(columns.get(c), type, values));
        continue;
      }
      for (InlineColumnType.Member m : type.members()) {
        List<Object> memberValues = new ArrayList<>(rows.size());
        for (Object v : values) {
          memberValues.add(v == null ? null : ((Map<?, ?>) v).get(m.column().getColumnName()));
        }
        leaves.add(new Leaf(m.column(), m.type(), memberValues));
      }
    }
    return leaves;
  }
}
