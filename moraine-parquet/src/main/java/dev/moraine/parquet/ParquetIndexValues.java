package dev.moraine.parquet;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.index.IndexKeyValue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The index values of a data file's rows, read from the file as the Rust crate reads them to derive
 * index entries (RFC 0002 §10): the indexed top-level columns found by field id, each value in the
 * form of the Arrow type the Parquet column reads as ({@link IndexKeyValue}); the row id from
 * DuckLake's row-id column where the file has one, else the file's {@code row_id_start} plus the
 * row's position. Stateless.
 *
 * <p>Parquet to index form: INT32 and INT64 integers at their annotated width and sign (plain INT32
 * and INT64 as signed 4 and 8 bytes); a DATE as its 4-byte day count; a TIMESTAMP as its count in
 * the unit of the column's DuckLake type, whatever unit the file stores it in (DuckDB writes a
 * {@code timestamp_s} in microseconds, and the crate reads it as seconds, as its column is typed);
 * FLOAT and DOUBLE; BOOLEAN; a STRING as text; other byte arrays, fixed-length ones (a UUID)
 * included, as bytes. Decimals, times, INT96, JSON and nested columns are not indexable.
 */
public final class ParquetIndexValues {
  private ParquetIndexValues() {}

  /**
   * One row's position in the file, its id and its values in the order of the columns asked for
   * (null for a NULL).
   */
  public record Row(long position, long rowId, List<IndexKeyValue> values) {}

  /**
   * The rows of {@code file} (the local file of data file {@code info}) not at one of {@code
   * deletedPositions}, with the values of the top-level {@code columns} (found by their ids). A
   * column the file does not hold (added after it was written) reads as NULL, its initial default.
   *
   * @throws IllegalArgumentException if a column is not indexable; the file has no field ids (the
   *     crate matches such a file through its name mapping), or lacks a column whose initial
   *     default is not NULL; or it carries no row ids and has no {@code row_id_start}
   * @throws IOException if the file cannot be read
   */
  public static List<Row> read(
      Path file, DataFileInfo info, List<ColumnInfo> columns, Set<Long> deletedPositions)
      throws IOException {
    return read(file, info, columns, p -> !deletedPositions.contains(p));
  }

  /**
   * As {@link #read(Path, DataFileInfo, List, Set)}, for the rows at the positions {@code wanted}
   * takes.
   */
  public static List<Row> read(
      Path file, DataFileInfo info, List<ColumnInfo> columns, LongPredicate wanted)
      throws IOException {
    MessageType schema = ParquetRows.schema(file);
    if (schema.getFields().stream().allMatch(f -> f.getId() == null)) {
      // The crate finds such a file's columns through its name mapping, which is not read here.
      throw new IllegalArgumentException(
          "data file "
              + Long.toUnsignedString(info.dataFileId())
              + " has no field ids; its columns are found by name mapping");
    }
    // How each asked-for column is read, worked out once for the file; null for one it lacks.
    List<Reading> readings = new ArrayList<>();
    for (ColumnInfo column : columns) {
      long id = column.columnId();
      Type found = null;
      for (Type f : schema.getFields()) {
        if (f.getId() != null && f.getId().intValue() == id) {
          found = f;
        }
      }
      if (found != null && !found.isPrimitive()) {
        throw new IllegalArgumentException(
            "column " + id + " is " + found + ", which is not indexable");
      }
      if (found != null) {
        readings.add(Reading.of(found.asPrimitiveType(), unitsPerSecond(column.type())));
        continue;
      }
      if (column.initialDefault().isPresent()
          && !column.initialDefault().get().equalsIgnoreCase("NULL")) {
        // The crate gives such a row the column's initial default; its text is not read here.
        throw new IllegalArgumentException(
            "the file predates column '"
                + column.name()
                + "', whose initial default "
                + column.initialDefault().get()
                + " its rows would take");
      }
      readings.add(null);
    }
    boolean rowIds = schema.containsField(ParquetCompaction.ROW_ID);
    if (!rowIds && info.rowIdStart().isEmpty()) {
      throw new IllegalArgumentException(
          "data file "
              + Long.toUnsignedString(info.dataFileId())
              + " carries no row ids and has no row_id_start");
    }
    List<Row> out = new ArrayList<>();
    try (ParquetReader<Group> reader = ParquetRows.open(file)) {
      long position = 0;
      for (Group g = reader.read(); g != null; g = reader.read(), position++) {
        if (!wanted.test(position)) {
          continue;
        }
        long rowId =
            rowIds && g.getFieldRepetitionCount(ParquetCompaction.ROW_ID) > 0
                ? g.getLong(ParquetCompaction.ROW_ID, 0)
                : info.rowIdStart().orElseThrow() + position;
        List<IndexKeyValue> values = new ArrayList<>();
        for (Reading r : readings) {
          values.add(r == null || g.getFieldRepetitionCount(r.name()) == 0 ? null : r.value(g));
        }
        out.add(new Row(position, rowId, values));
      }
    }
    return out;
  }

  /** The kind of index value a column of this Parquet type reads as, refusing the others. */
  private enum Form {
    SIGNED,
    UNSIGNED,
    FLOAT32,
    FLOAT64,
    BOOL,
    TEXT,
    BYTES
  }

  private static Form indexForm(PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    return switch (type.getPrimitiveTypeName()) {
      case BOOLEAN -> Form.BOOL;
      case FLOAT -> Form.FLOAT32;
      case DOUBLE -> Form.FLOAT64;
      case INT32, INT64 -> {
        if (logical == null
            || logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
          yield Form.SIGNED;
        }
        if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
          yield i.isSigned() ? Form.SIGNED : Form.UNSIGNED;
        }
        throw notIndexable(type);
      }
      case BINARY -> {
        if (logical == null) {
          yield Form.BYTES;
        }
        if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation) {
          yield Form.TEXT;
        }
        throw notIndexable(type);
      }
      case FIXED_LEN_BYTE_ARRAY -> {
        if (logical == null || logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
          yield Form.BYTES;
        }
        throw notIndexable(type);
      }
      case INT96 -> throw notIndexable(type);
    };
  }

  private static IllegalArgumentException notIndexable(PrimitiveType type) {
    return new IllegalArgumentException("a Parquet column " + type + " is not indexable");
  }

  /**
   * How many units of a second a timestamp column of DuckLake type {@code type} counts, or 0 for
   * another type.
   */
  private static long unitsPerSecond(String type) {
    return switch (type.toLowerCase(java.util.Locale.ROOT)) {
      case "timestamp_s" -> 1L;
      case "timestamp_ms" -> 1_000L;
      case "timestamp", "timestamptz" -> 1_000_000L;
      case "timestamp_ns" -> 1_000_000_000L;
      default -> 0L;
    };
  }

  /** A stored timestamp count in the column's unit ({@code perSecond}), whole units down. */
  private static long inColumnUnit(long stored, TimeUnit unit, long perSecond) {
    long storedPerSecond =
        switch (unit) {
          case MILLIS -> 1_000L;
          case MICROS -> 1_000_000L;
          case NANOS -> 1_000_000_000L;
        };
    return storedPerSecond >= perSecond
        ? Math.floorDiv(stored, storedPerSecond / perSecond)
        : Math.multiplyExact(stored, perSecond / storedPerSecond);
  }

  /**
   * How one column of the file is read: its field's name, its index form, its integer width in
   * bytes, and for a timestamp column the units per second of its DuckLake type (0 otherwise).
   */
  private record Reading(String name, PrimitiveType type, Form form, int width, long perSecond) {
    /**
     * @throws IllegalArgumentException if the field is not indexable
     */
    static Reading of(PrimitiveType type, long perSecond) {
      int width =
          type.getLogicalTypeAnnotation()
                  instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
              ? i.getBitWidth() / 8
              : type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32 ? 4 : 8;
      return new Reading(type.getName(), type, indexForm(type), width, perSecond);
    }

    IndexKeyValue value(Group g) {
      return switch (form) {
        case BOOL -> new IndexKeyValue.Bool(g.getBoolean(name, 0));
        case FLOAT32 -> new IndexKeyValue.Float32(g.getFloat(name, 0));
        case FLOAT64 -> new IndexKeyValue.Float64(g.getDouble(name, 0));
        case SIGNED, UNSIGNED -> {
          long v =
              type.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT32
                  ? g.getLong(name, 0)
                  : form == Form.UNSIGNED
                      ? Integer.toUnsignedLong(g.getInteger(name, 0))
                      : g.getInteger(name, 0);
          if (perSecond != 0
              && type.getLogicalTypeAnnotation()
                  instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
            v = inColumnUnit(v, t.getUnit(), perSecond);
          }
          yield form == Form.SIGNED
              ? new IndexKeyValue.Signed(v, width)
              : new IndexKeyValue.Unsigned(v, width);
        }
        case TEXT -> new IndexKeyValue.Text(g.getBinary(name, 0).toStringUsingUTF8());
        case BYTES -> new IndexKeyValue.Bytes(g.getBinary(name, 0).getBytes());
      };
    }
  }
}
