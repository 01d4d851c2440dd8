package dev.moraine.core.inline;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import java.util.Collection;

/**
 * A table column's statistics widened by a newly registered file's statistics for that column, as
 * stock DuckLake merges a file into {@code ducklake_table_column_stats}: nulls and NaNs are kept
 * once seen, a file with no non-null value leaves the bounds alone, a record that has seen only
 * nulls takes the file's bounds, and otherwise the lower minimum and the higher maximum stand (a
 * bound the file does not give becomes unknown). Bounds compare by the column's type where it is
 * one the inline encoding knows (numbers as numbers, times as times), else as text.
 */
public final class FileStatsMerge {
  private FileStatsMerge() {}

  /**
   * The merged record.
   *
   * @param tableId the table
   * @param column the (leaf) column
   * @param tableColumns the table's live columns, for the column's type
   * @param before the table's record for the column, or null when it has none yet
   * @param file the file's statistics for the column
   */
  public static TableColumnStatsValue merge(
      long tableId,
      ColumnValue column,
      Collection<ColumnValue> tableColumns,
      TableColumnStatsValue before,
      NewFileColumnStats file) {
    TableColumnStatsValue.Builder b =
        before != null
            ? before.toBuilder()
            : TableColumnStatsValue.newBuilder()
                .setTableId(tableId)
                .setColumnId(column.getColumnId());
    boolean fileNulls = file.nullCount() > 0;
    b.setContainsNull(
        (before != null && before.hasContainsNull() && before.getContainsNull()) || fileNulls);
    if (file.containsNan().isEmpty()) {
      b.clearContainsNan();
    } else if (before == null || before.hasContainsNan()) {
      b.setContainsNan((before != null && before.getContainsNan()) || file.containsNan().get());
    }
    // value_count counts the non-null values (DuckLake's meaning, as stock's files record it).
    boolean anyValid = file.valueCount() != 0;
    if (!anyValid) {
      return b.build();
    }
    boolean onlyNullsBefore = before == null || (!before.hasMinValue() && !before.hasMaxValue());
    if (onlyNullsBefore) {
      b.clearMinValue().clearMaxValue();
      file.minValue().ifPresent(b::setMinValue);
      file.maxValue().ifPresent(b::setMaxValue);
      return b.build();
    }
    InlineColumnType type = typeOf(column, tableColumns);
    if (file.minValue().isEmpty()) {
      b.clearMinValue();
    } else if (b.hasMinValue() && compare(type, file.minValue().get(), b.getMinValue()) < 0) {
      b.setMinValue(file.minValue().get());
    }
    if (file.maxValue().isEmpty()) {
      b.clearMaxValue();
    } else if (b.hasMaxValue() && compare(type, file.maxValue().get(), b.getMaxValue()) > 0) {
      b.setMaxValue(file.maxValue().get());
    }
    return b.build();
  }

  /** The column's inline type, or null for a type the inline encoding does not take. */
  static InlineColumnType typeOf(ColumnValue column, Collection<ColumnValue> tableColumns) {
    try {
      return InlineColumnType.of(column, tableColumns);
    } catch (InvalidArgumentException notInlinable) {
      return null;
    }
  }

  /**
   * Compares two bounds of one column: by its type where the inline encoding knows it, else (a
   * hugeint, a time with zone, ...) as numbers when both read as numbers, as DuckDB compares such
   * values by casting them, and as text otherwise.
   */
  static int compare(InlineColumnType type, String a, String b) {
    if (type != null) {
      return InlineStatText.compare(type, a, b);
    }
    try {
      return new java.math.BigDecimal(a).compareTo(new java.math.BigDecimal(b));
    } catch (NumberFormatException notNumbers) {
      return a.compareTo(b);
    }
  }
}
