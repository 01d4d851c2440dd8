package dev.moraine.core.inline;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's statistics counted afresh from the data files it holds and its live inlined rows, as
 * stock DuckLake 1.5.5 recounts them when a rewrite leaves the table without deletions (RFC 0005
 * §6): the record count is the files' rows plus the inlined rows, the byte count the files' bytes,
 * and each column's bounds, null and NaN flags are the merge of every file's statistics for it and
 * of the inlined values. A column no file describes becomes unknown. Single-use and confined to the
 * thread that builds it.
 */
public final class ExactTableStats {
  /** One column's merged statistics; the fields follow stock DuckLake's column statistics. */
  private static final class Column {
    long nullCount;
    long valueCount;
    boolean nanKnown = true;
    boolean nan;
    String min;
    String max;
    boolean minKnown = true;
    boolean maxKnown = true;
    final List<String> extra = new ArrayList<>();
  }

  private final List<ColumnValue> columns;
  private final Map<Long, ColumnValue> byId = new HashMap<>();
  private final Map<Long, Column> merged = new HashMap<>();
  private long recordCount;
  private long fileSizeBytes;

  /** Statistics over nothing yet, for a table whose live columns are {@code columns}. */
  public ExactTableStats(List<ColumnValue> columns) {
    this.columns = List.copyOf(columns);
    columns.forEach(c -> byId.put(c.getColumnId(), c));
  }

  /** Adds one data file and its column statistics (those of dropped columns are passed over). */
  public void addFile(DataFileValue file, List<FileColumnStatsValue> stats) {
    addFile(file.getRecordCount(), file.getFileSizeBytes(), stats);
  }

  /** Adds one data file of {@code records} rows and {@code bytes} bytes, and its statistics. */
  public void addFile(long records, long bytes, List<FileColumnStatsValue> stats) {
    recordCount += records;
    fileSizeBytes += bytes;
    for (FileColumnStatsValue st : stats) {
      ColumnValue column = byId.get(st.getColumnId());
      if (column == null) {
        continue;
      }
      merge(
          column,
          st.getNullCount(),
          st.getValueCount(),
          st.hasContainsNan() ? Optional.of(st.getContainsNan()) : Optional.empty(),
          st.hasMinValue() ? st.getMinValue() : null,
          st.hasMaxValue() ? st.getMaxValue() : null,
          st.hasExtraStats() ? st.getExtraStats() : null);
    }
  }

  /**
   * Adds the table's live inlined rows, whose fields carry their column ids. Stock DuckLake counts
   * inlined values only when every top-level column is a number, a time, a varchar or a boolean;
   * for any other table, and for rows the current columns do not take, this answers false, adds
   * nothing, and the caller keeps the statistics it had.
   */
  public boolean addInlinedRows(List<InlinedRows.Row> rows) {
    if (rows.isEmpty()) {
      return true;
    }
    List<ColumnValue> roots = columns.stream().filter(c -> !c.hasParentColumn()).toList();
    List<InlineColumnType> types = new ArrayList<>(roots.size());
    for (ColumnValue c : roots) {
      InlineColumnType type;
      try {
        type = InlineColumnType.of(c, columns);
      } catch (InvalidArgumentException notInlinable) {
        return false;
      }
      if (!foldable(type)) {
        return false;
      }
      types.add(type);
    }
    List<List<Object>> checked;
    try {
      checked = InlineValues.check(roots, types, cellsByColumn(rows, roots));
    } catch (InvalidArgumentException | IllegalStateException unreadable) {
      // Rows inlined under an older schema (a type since widened, a column since added as not
      // null) that the current columns do not take: counted as stock could not count them.
      return false;
    }
    long total = checked.size();
    for (int c = 0; c < roots.size(); c++) {
      InlineColumnType type = types.get(c);
      boolean floating = type.floating();
      long nonNull = 0;
      boolean nan = false;
      String min = null;
      String max = null;
      for (List<Object> row : checked) {
        Object v = row.get(c);
        if (v == null) {
          continue;
        }
        nonNull++;
        if ((v instanceof Float f && f.isNaN()) || (v instanceof Double d && d.isNaN())) {
          nan = true;
          continue;
        }
        String text = InlineStatText.of(type, v);
        if (min == null || InlineStatText.compare(type, text, min) < 0) {
          min = text;
        }
        if (max == null || InlineStatText.compare(type, text, max) > 0) {
          max = text;
        }
      }
      // Stock DuckLake records no float bounds for values among which is a NaN.
      if (floating && nan) {
        min = null;
        max = null;
      }
      merge(
          roots.get(c),
          total - nonNull,
          nonNull,
          floating ? Optional.of(nan) : Optional.empty(),
          min,
          max,
          null);
    }
    recordCount += total;
    return true;
  }

  /** Each row's cells of the top-level columns {@code roots}, matched by field id. */
  private static List<List<Object>> cellsByColumn(
      List<InlinedRows.Row> rows, List<ColumnValue> roots) {
    List<List<Object>> values = new ArrayList<>(rows.size());
    for (InlinedRows.Row row : rows) {
      Map<Long, Object> byColumn = new HashMap<>();
      List<Object> typed = row.typedValues();
      for (int i = 0; i < row.fields().size(); i++) {
        String id = row.fields().get(i).getMetadata().get("PARQUET:field_id");
        if (id != null) {
          byColumn.put(Long.parseUnsignedLong(id), typed.get(i));
        }
      }
      List<Object> cells = new ArrayList<>(roots.size());
      roots.forEach(c -> cells.add(byColumn.get(c.getColumnId())));
      values.add(cells);
    }
    return values;
  }

  /** The rows counted. */
  public long recordCount() {
    return recordCount;
  }

  /** The bytes of the files counted. */
  public long fileSizeBytes() {
    return fileSizeBytes;
  }

  /**
   * {@code before}, a column statistics record of the table, with what was counted for its column
   * (every field unknown when nothing described the column); {@code before} itself for a column the
   * table no longer has.
   */
  public TableColumnStatsValue recounted(TableColumnStatsValue before) {
    ColumnValue column = byId.get(before.getColumnId());
    if (column == null) {
      return before;
    }
    TableColumnStatsValue.Builder b =
        TableColumnStatsValue.newBuilder()
            .setTableId(before.getTableId())
            .setColumnId(before.getColumnId());
    Column m = merged.get(column.getColumnId());
    if (m == null) {
      return b.build();
    }
    b.setContainsNull(m.nullCount > 0);
    if (m.nanKnown) {
      b.setContainsNan(m.nan);
    }
    if (m.minKnown && m.min != null) {
      b.setMinValue(m.min);
    }
    if (m.maxKnown && m.max != null) {
      b.setMaxValue(m.max);
    }
    // Extra statistics (of geometries and variants) are opaque here: one source's stand; several
    // sources keep what the table had, as they cannot be merged without knowing their form.
    if (m.extra.size() == 1) {
      b.setExtraStats(m.extra.get(0));
    } else if (m.extra.size() > 1 && before.hasExtraStats()) {
      b.setExtraStats(before.getExtraStats());
    }
    return b.build();
  }

  /**
   * Merges one source's statistics for a column, as stock DuckLake merges column statistics: the
   * first source is taken as it is; then counts add up, a flag or bound any source does not know
   * becomes unknown, a source with no non-null value leaves the bounds alone, and the lower minimum
   * and higher maximum stand, compared by the column's type.
   */
  private void merge(
      ColumnValue column,
      long nullCount,
      long valueCount,
      Optional<Boolean> nan,
      String min,
      String max,
      String extra) {
    Column m = merged.get(column.getColumnId());
    boolean valid = valueCount > 0;
    if (m == null) {
      m = new Column();
      m.nullCount = nullCount;
      m.valueCount = valueCount;
      m.nanKnown = nan.isPresent();
      m.nan = nan.orElse(false);
      m.min = min;
      m.max = max;
      m.minKnown = min != null;
      m.maxKnown = max != null;
      if (extra != null) {
        m.extra.add(extra);
      }
      merged.put(column.getColumnId(), m);
      return;
    }
    if (extra != null) {
      m.extra.add(extra);
    }
    m.nullCount += nullCount;
    m.valueCount += valueCount;
    if (nan.isEmpty()) {
      m.nanKnown = false;
    } else if (m.nanKnown && nan.get()) {
      m.nan = true;
    }
    // Stock DuckLake adds the counts before it asks whether any value was valid, so with counts
    // known a first source of nulls only leaves the bounds unknown for good.
    if (!valid) {
      return;
    }
    InlineColumnType type = FileStatsMerge.typeOf(column, columns);
    if (min == null) {
      m.minKnown = false;
    } else if (m.minKnown && FileStatsMerge.compare(type, min, m.min) < 0) {
      m.min = min;
    }
    if (max == null) {
      m.maxKnown = false;
    } else if (m.maxKnown && FileStatsMerge.compare(type, max, m.max) > 0) {
      m.max = max;
    }
  }

  private static boolean foldable(InlineColumnType type) {
    return switch (type.kind()) {
      case BLOB, UUID, STRUCT, LIST, MAP -> false;
      default -> true;
    };
  }
}
