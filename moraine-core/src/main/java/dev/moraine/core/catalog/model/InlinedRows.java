package dev.moraine.core.catalog.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A table's inlined rows live at a snapshot, in row-id order, decoded from their Arrow chunks.
 * {@code columns} are the Arrow field names of the schema version each row was written under.
 *
 * <p>Each row gives its cells two ways. {@link Row#values()} holds them as Arrow Java's {@code
 * getObject} gives them (a date as its day number, a {@code timestamptz} as microseconds, a uuid as
 * text, an unsigned integer as the signed value of its bits): the form the dump and the DuckLake
 * row renderer print from. {@link Row#typedValues()} holds them as the Java values the inline
 * insert verb takes, so a host reads back equal values to the ones it inlined (RFC 0003 §3.3).
 */
public record InlinedRows(long tableId, List<Row> rows) {
  public InlinedRows {
    rows = List.copyOf(rows);
  }

  /**
   * These rows with the DuckLake type of each column looked up by column id in {@code types}
   * (column id to type; a column id absent from it leaves the row's type null).
   */
  public InlinedRows withColumnTypes(Map<Long, String> types) {
    return new InlinedRows(tableId, rows.stream().map(r -> r.withColumnTypes(types)).toList());
  }

  /**
   * One inlined row: its id, the chunk that holds it, its columns (names, and the Arrow fields they
   * are stored as, which tell for instance a signed from an unsigned integer), raw values, and the
   * DuckLake type of each column where known (null for a column the table no longer has, or when
   * the row was read without the table's columns).
   *
   * @throws IllegalArgumentException if {@code columnTypes} does not have one entry per field;
   *     nothing is built
   */
  public record Row(
      long rowId,
      long schemaVersion,
      long beginSnapshot,
      List<String> columns,
      List<Field> fields,
      List<Object> values,
      List<String> columnTypes) {
    public Row {
      columns = List.copyOf(columns);
      fields = List.copyOf(fields);
      values = Collections.unmodifiableList(new ArrayList<>(values));
      columnTypes = Collections.unmodifiableList(new ArrayList<>(columnTypes));
      if (columnTypes.size() != fields.size()) {
        throw new IllegalArgumentException(
            columnTypes.size() + " column types for " + fields.size() + " fields");
      }
    }

    /** A row whose column types are not known. */
    public Row(
        long rowId,
        long schemaVersion,
        long beginSnapshot,
        List<String> columns,
        List<Field> fields,
        List<Object> values) {
      this(
          rowId,
          schemaVersion,
          beginSnapshot,
          columns,
          fields,
          values,
          Collections.nCopies(fields.size(), null));
    }

    /**
     * The cells as the Java values the inline insert verb takes for their columns: {@code Boolean};
     * {@code Long} for every integer width, signed or not, but {@code BigInteger} for {@code
     * uint64}; {@code Float}, {@code Double}; {@code String}; {@code byte[]}; a {@code BigDecimal}
     * of the column's scale; {@code LocalDate}; {@code LocalTime}; {@code LocalDateTime} for the
     * timestamps without a zone; {@code Instant} for {@code timestamptz}; {@code UUID} for a {@code
     * uuid} column; null for a null. A uuid column whose type is unknown ({@link #columnTypes()}
     * null) reads as its text. Computed on each call.
     *
     * @throws IllegalStateException if a field has an Arrow type no inline chunk of this format
     *     holds; nothing changes
     */
    public List<Object> typedValues() {
      List<Object> out = new ArrayList<>(values.size());
      for (int i = 0; i < values.size(); i++) {
        out.add(InlinedCell.typed(fields.get(i), columnTypes.get(i), values.get(i)));
      }
      return Collections.unmodifiableList(out);
    }

    /**
     * The typed value ({@link #typedValues()}) of the column with id {@code columnId}: the field
     * carrying that id as its {@code PARQUET:field_id}, or, in a chunk whose fields carry none (the
     * Rust crate writes its chunks so), the field named {@code columnName}. Null when the row has
     * no such field (a column added after it was written) or the value is null.
     */
    public Object typedValueOf(long columnId, String columnName) {
      for (int i = 0; i < fields.size(); i++) {
        String id = fields.get(i).getMetadata().get("PARQUET:field_id");
        if (id != null
            ? Long.parseUnsignedLong(id) == columnId
            : columns.get(i).equals(columnName)) {
          return InlinedCell.typed(fields.get(i), columnTypes.get(i), values.get(i));
        }
      }
      return null;
    }

    /** This row with its column types looked up by the fields' {@code PARQUET:field_id}. */
    Row withColumnTypes(Map<Long, String> types) {
      List<String> found = new ArrayList<>(fields.size());
      for (Field f : fields) {
        String id = f.getMetadata().get("PARQUET:field_id");
        found.add(id == null ? null : types.get(Long.parseUnsignedLong(id)));
      }
      return new Row(rowId, schemaVersion, beginSnapshot, columns, fields, values, found);
    }
  }
}
