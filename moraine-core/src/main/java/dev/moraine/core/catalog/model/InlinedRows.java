package dev.moraine.core.catalog.model;

import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A table's inlined rows live at a snapshot, in row-id order, decoded from their Arrow chunks.
 * {@code columns} are the Arrow field names of the schema version each row was written under; a
 * value is what Arrow Java's {@code getObject} gives for the cell (for example {@code Long}, {@code
 * org.apache.arrow.vector.util.Text}, {@code null}).
 */
public record InlinedRows(long tableId, List<Row> rows) {
  public InlinedRows {
    rows = List.copyOf(rows);
  }

  /**
   * One inlined row: its id, the chunk that holds it, its columns with their Arrow types, and its
   * values. {@code types} tells apart what {@code getObject} does not, such as an unsigned integer
   * (handed out as the signed value of the same bits) or a timestamp with a time zone (a {@code
   * Long}).
   */
  public record Row(
      long rowId,
      long schemaVersion,
      long beginSnapshot,
      List<String> columns,
      List<ArrowType> types,
      List<Object> values) {
    public Row {
      columns = List.copyOf(columns);
      types = List.copyOf(types);
      values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }
  }
}
