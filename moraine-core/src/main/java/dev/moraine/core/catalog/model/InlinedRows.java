package dev.moraine.core.catalog.model;

import java.util.List;

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
   * One inlined row: its id, the chunk that holds it, its columns (names, and the Arrow fields they
   * are stored as, which tell for instance a signed from an unsigned integer) and values.
   */
  public record Row(
      long rowId,
      long schemaVersion,
      long beginSnapshot,
      List<String> columns,
      List<org.apache.arrow.vector.types.pojo.Field> fields,
      List<Object> values) {
    public Row {
      columns = List.copyOf(columns);
      fields = List.copyOf(fields);
      values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }
  }
}
