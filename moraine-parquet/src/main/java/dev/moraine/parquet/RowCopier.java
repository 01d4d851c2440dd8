package dev.moraine.parquet;

import dev.moraine.core.catalog.model.NewFileColumnStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Copies the table's fields of input rows into output rows, field by field and value by value
 * (structs, lists and maps as the groups they are), counting each leaf column's statistics on the
 * way. Which nulls count follows DuckDB's statistics: an absent optional value is a null of its
 * leaf, an absent struct a null of each of its leaves, and a null or empty list adds nothing to its
 * element's. Confined to the writing thread.
 */
final class RowCopier {
  private final List<Type> fields;
  // Leaf column id -> its statistics, in schema order; keyed by field id, which is the column id.
  private final Map<Integer, LeafStats> leaves = new LinkedHashMap<>();

  /**
   * @param columnTypes the DuckLake type of each live column, by column id: leaves of other ids
   *     (columns since dropped) get no statistics
   */
  RowCopier(List<Type> fields, Map<Integer, String> columnTypes) {
    this.fields = List.copyOf(fields);
    for (Type f : fields) {
      register(f, columnTypes);
    }
  }

  /** The leaves' statistics, by column id. */
  Map<Integer, LeafStats> leaves() {
    return leaves;
  }

  /** The registration's statistics of the leaves, given each leaf's column-chunk bytes by id. */
  List<NewFileColumnStats> stats(Map<Integer, Long> sizes) {
    List<NewFileColumnStats> out = new ArrayList<>();
    leaves.forEach((id, leaf) -> out.add(leaf.toStats(sizes.getOrDefault(id, 0L))));
    return out;
  }

  /** Copies the table's fields of {@code in} (named as in the output) into {@code out}. */
  void copy(Group in, Group out) {
    for (Type f : fields) {
      GroupType source = in.getType();
      if (!source.containsField(f.getName())) {
        nullBelow(f);
        continue;
      }
      copyField(
          in, source.getFieldIndex(f.getName()), out, out.getType().getFieldIndex(f.getName()), f);
    }
  }

  private void copyField(Group in, int from, Group out, int to, Type type) {
    int n = in.getFieldRepetitionCount(from);
    if (n == 0) {
      // An absent value, struct, list or map, or an empty list or map: a null of each leaf below.
      nullBelow(type);
      return;
    }
    if (type.isPrimitive()) {
      PrimitiveType p = type.asPrimitiveType();
      LeafStats stats = type.getId() == null ? null : leaves.get(type.getId().intValue());
      for (int i = 0; i < n; i++) {
        Object v = read(in, from, i, p);
        write(out, to, v, p);
        if (stats != null) {
          stats.add(v);
        }
      }
      return;
    }
    GroupType g = type.asGroupType();
    for (int i = 0; i < n; i++) {
      Group src = in.getGroup(from, i);
      Group dst = out.addGroup(to);
      for (int k = 0; k < g.getFieldCount(); k++) {
        copyField(src, k, dst, k, g.getType(k));
      }
    }
  }

  /** A null of every leaf under {@code type}. */
  private void nullBelow(Type type) {
    if (type.isPrimitive()) {
      if (type.getId() != null && leaves.containsKey(type.getId().intValue())) {
        leaves.get(type.getId().intValue()).addNull();
      }
      return;
    }
    type.asGroupType().getFields().forEach(this::nullBelow);
  }

  private void register(Type type, Map<Integer, String> columnTypes) {
    if (type.isPrimitive()) {
      String columnType = type.getId() == null ? null : columnTypes.get(type.getId().intValue());
      if (columnType != null) {
        leaves.put(
            type.getId().intValue(),
            new LeafStats(type.getId().intValue(), type.asPrimitiveType(), bounded(columnType)));
      }
      return;
    }
    type.asGroupType().getFields().forEach(f -> register(f, columnTypes));
  }

  /**
   * Whether stock DuckLake keeps bounds for a column of this type: not for 128-bit integers (which
   * DuckDB writes to Parquet as doubles), times with a zone or intervals.
   */
  private static boolean bounded(String duckLakeType) {
    String t = duckLakeType.toLowerCase(java.util.Locale.ROOT);
    return !(t.equals("int128")
        || t.equals("uint128")
        || t.equals("hugeint")
        || t.equals("uhugeint")
        || t.equals("timetz")
        || t.equals("interval"));
  }

  private static Object read(Group in, int field, int index, PrimitiveType type) {
    return switch (type.getPrimitiveTypeName()) {
      case INT32 -> in.getInteger(field, index);
      case INT64 -> in.getLong(field, index);
      case BOOLEAN -> in.getBoolean(field, index);
      case FLOAT -> in.getFloat(field, index);
      case DOUBLE -> in.getDouble(field, index);
      case INT96 -> in.getInt96(field, index);
      case BINARY, FIXED_LEN_BYTE_ARRAY -> in.getBinary(field, index);
    };
  }

  private static void write(Group out, int field, Object v, PrimitiveType type) {
    switch (type.getPrimitiveTypeName()) {
      case INT32 -> out.add(field, (Integer) v);
      case INT64 -> out.add(field, (Long) v);
      case BOOLEAN -> out.add(field, (Boolean) v);
      case FLOAT -> out.add(field, (Float) v);
      case DOUBLE -> out.add(field, (Double) v);
      default -> out.add(field, (org.apache.parquet.io.api.Binary) v);
    }
  }
}
