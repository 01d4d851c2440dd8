package dev.moraine.parquet;

import dev.moraine.core.catalog.model.NewFileColumnStats;
import java.util.Optional;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One leaf column's statistics over the values a compaction writes, as DuckDB's Parquet writer
 * reports them to DuckLake: the non-null values counted as {@code value_count}, the nulls, the
 * bounds by the leaf's own ordering (NaN left out of them), and for a float or double whether a NaN
 * was among the values. Confined to the writing thread.
 */
final class LeafStats {
  private final long columnId;
  private final PrimitiveType type;
  private final PrimitiveComparator<Object> order;
  private final boolean floating;
  private final boolean bounded;
  private long values;
  private long nulls;
  private boolean nan;
  private Object min;
  private Object max;

  @SuppressWarnings("unchecked")
  LeafStats(long columnId, PrimitiveType type, boolean bounded) {
    this.columnId = columnId;
    this.bounded = bounded;
    this.type = type;
    this.order = (PrimitiveComparator<Object>) type.comparator();
    PrimitiveTypeName p = type.getPrimitiveTypeName();
    this.floating = p == PrimitiveTypeName.FLOAT || p == PrimitiveTypeName.DOUBLE;
  }

  void addNull() {
    nulls++;
  }

  void add(Object value) {
    values++;
    if ((value instanceof Float f && f.isNaN()) || (value instanceof Double d && d.isNaN())) {
      nan = true;
      return;
    }
    if (!bounded) {
      return;
    }
    // A Binary may be a view of a reused buffer: the bounds keep copies.
    if (min == null || order.compare(value, min) < 0) {
      min = value instanceof Binary b ? b.copy() : value;
    }
    if (max == null || order.compare(value, max) > 0) {
      max = value instanceof Binary b ? b.copy() : value;
    }
  }

  /** The statistics to register, with the column's bytes in the written file. */
  NewFileColumnStats toStats(long sizeBytes) {
    Optional<String> lo = min == null ? Optional.empty() : StatText.of(type, min);
    Optional<String> hi = max == null ? Optional.empty() : StatText.of(type, max);
    return new NewFileColumnStats(
        columnId,
        sizeBytes,
        values,
        nulls,
        lo,
        hi,
        floating ? Optional.of(nan) : Optional.empty(),
        Optional.empty());
  }
}
