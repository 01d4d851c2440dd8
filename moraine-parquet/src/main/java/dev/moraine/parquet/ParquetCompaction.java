package dev.moraine.parquet;

import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Writes the Parquet file of a compaction, as stock DuckLake 1.5.5 writes its own (RFC 0005 §2.1
 * and §6.1), and returns the registration {@link Transaction#mergeDataFiles} or {@link
 * Transaction#rewriteDataFiles} takes:
 *
 * <ul>
 *   <li>{@link #merge}: every row of the inputs, in their order, each with its inserting snapshot
 *       in {@code _ducklake_internal_snapshot_id} (field id 2147483539), and with its row id in
 *       {@code _ducklake_internal_row_id} (field id 2147483540) when the inputs' row ids do not
 *       form one run;
 *   <li>{@link #rewrite}: the rows no deletion names, each with its row id in {@code
 *       _ducklake_internal_row_id}.
 * </ul>
 *
 * The table's columns keep their field ids (a top-level field without one, as in a file registered
 * by name, gets its column's id by name). Pages are Snappy-compressed, as DuckDB writes them;
 * inputs may be uncompressed, Snappy, ZSTD or GZIP. The column statistics of the registration are
 * counted over the rows written, in DuckLake's texts. The inputs must share one schema. Stateless.
 */
public final class ParquetCompaction {
  static final String ROW_ID = "_ducklake_internal_row_id";
  static final String SNAPSHOT_ID = "_ducklake_internal_snapshot_id";
  static final int ROW_ID_FIELD = 2147483540;
  static final int SNAPSHOT_ID_FIELD = 2147483539;

  private ParquetCompaction() {}

  /**
   * Writes the merged file of {@code inputs} (ordered by row id, as the verb orders them) at {@code
   * output}, which must not exist, to be registered as {@code registeredPath} (relative to the
   * table's path).
   *
   * @param columns the table's live columns
   * @throws IllegalArgumentException if fewer than two inputs are given, one has deleted rows, or
   *     their schemas differ or name a column the table lacks; nothing is written
   * @throws IOException if a file cannot be read or written, or an input does not hold the rows its
   *     record says; a partial output may remain
   */
  public static NewDataFile merge(
      List<ColumnInfo> columns, List<CompactionInput> inputs, Path output, String registeredPath)
      throws IOException {
    if (inputs.size() < 2) {
      throw new IllegalArgumentException("a merge needs at least two input files");
    }
    for (CompactionInput in : inputs) {
      if (!in.deletedPositions().isEmpty()) {
        throw new IllegalArgumentException(
            "input file "
                + Long.toUnsignedString(in.file().dataFileId())
                + " has deleted rows; rewrite it instead");
      }
    }
    List<CompactionInput> ordered = new ArrayList<>(inputs);
    ordered.sort(
        (a, b) ->
            Long.compareUnsigned(
                a.file().rowIdStart().orElse(-1L), b.file().rowIdStart().orElse(-1L)));
    return write(columns, ordered, output, registeredPath, !contiguous(ordered), true);
  }

  /**
   * Writes the rewritten file of {@code inputs} at {@code output}, which must not exist, to be
   * registered as {@code registeredPath}: the rows not in their {@code deletedPositions}.
   *
   * @param columns the table's live columns
   * @throws IllegalArgumentException if no input is given, one is encrypted, or their schemas
   *     differ or name a column the table lacks; nothing is written
   * @throws IOException as {@link #merge}
   */
  public static NewDataFile rewrite(
      List<ColumnInfo> columns, List<CompactionInput> inputs, Path output, String registeredPath)
      throws IOException {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("a rewrite needs at least one input file");
    }
    return write(columns, inputs, output, registeredPath, true, false);
  }

  private static boolean contiguous(List<CompactionInput> ordered) {
    long next = -1;
    for (CompactionInput in : ordered) {
      OptionalLong start = in.file().rowIdStart();
      if (start.isEmpty() || (next != -1 && start.getAsLong() != next)) {
        return false;
      }
      next = start.getAsLong() + in.file().recordCount();
    }
    return true;
  }

  private static NewDataFile write(
      List<ColumnInfo> columns,
      List<CompactionInput> inputs,
      Path output,
      String registeredPath,
      boolean rowIds,
      boolean snapshotIds)
      throws IOException {
    List<Type> user = null;
    for (CompactionInput in : inputs) {
      DataFileInfo file = in.file();
      if (file.encryptionKey().isPresent()) {
        throw new IllegalArgumentException(
            "data file " + Long.toUnsignedString(file.dataFileId()) + " is encrypted");
      }
      MessageType schema = ParquetRows.schema(in.path());
      if (snapshotIds && file.partialMax().isPresent() && !schema.containsField(SNAPSHOT_ID)) {
        throw new IllegalArgumentException(
            "data file "
                + Long.toUnsignedString(file.dataFileId())
                + " holds rows of several snapshots but does not say which");
      }
      List<Type> fields = userFields(schema, columns);
      if (user == null) {
        user = fields;
      } else if (!user.equals(fields)) {
        throw new IllegalArgumentException(
            "input file "
                + Long.toUnsignedString(in.file().dataFileId())
                + " was written under another schema than "
                + Long.toUnsignedString(inputs.get(0).file().dataFileId()));
      }
    }
    List<Type> fields = new ArrayList<>(user);
    if (rowIds) {
      fields.add(internal(ROW_ID, ROW_ID_FIELD));
    }
    if (snapshotIds) {
      fields.add(internal(SNAPSHOT_ID, SNAPSHOT_ID_FIELD));
    }
    MessageType schema = new MessageType("duckdb_schema", fields);
    Map<Integer, String> columnTypes = new HashMap<>();
    columns.forEach(c -> columnTypes.put(Math.toIntExact(c.columnId()), c.type()));
    RowCopier copier = new RowCopier(user, columnTypes);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    long written = 0;
    Map<Integer, Long> sizes = new HashMap<>();
    boolean done = false;
    try (ParquetWriter<Group> writer = ParquetOutput.open(output, schema)) {
      for (CompactionInput in : inputs) {
        written += copy(in, copier, groups, writer, rowIds, snapshotIds);
      }
      writer.close();
      sizes.putAll(ParquetOutput.columnSizes(writer));
      done = true;
    } finally {
      if (!done) {
        // Nothing refers to a file that failed part way: it goes.
        Files.deleteIfExists(output);
      }
    }
    DataFileInfo first = inputs.get(0).file();
    return new NewDataFile(
        registeredPath,
        true,
        "parquet",
        written,
        Files.size(output),
        ParquetOutput.footerSize(output),
        Optional.empty(),
        copier.stats(sizes),
        first.partitionValues().stream().map(DataFileInfo.PartitionValue::value).toList());
  }

  /** Copies one input's rows, returning how many it wrote. */
  private static long copy(
      CompactionInput in,
      RowCopier copier,
      SimpleGroupFactory groups,
      ParquetWriter<Group> writer,
      boolean rowIds,
      boolean snapshotIds)
      throws IOException {
    DataFileInfo file = in.file();
    long position = 0;
    long written = 0;
    try (ParquetReader<Group> reader = ParquetRows.open(in.path())) {
      for (Group row = reader.read(); row != null; row = reader.read(), position++) {
        if (in.deletedPositions().contains(position)) {
          continue;
        }
        Group out = groups.newGroup();
        copier.copy(row, out);
        if (rowIds) {
          out.add(ROW_ID, internalValue(row, ROW_ID, file.rowIdStart(), position, file));
        }
        if (snapshotIds) {
          out.add(
              SNAPSHOT_ID,
              internalValue(row, SNAPSHOT_ID, OptionalLong.of(file.beginSnapshot()), 0, file));
        }
        writer.write(out);
        written++;
      }
    }
    if (position != file.recordCount()) {
      throw new IOException(
          in.path()
              + " holds "
              + position
              + " rows; data file "
              + Long.toUnsignedString(file.dataFileId())
              + " is registered with "
              + file.recordCount());
    }
    return written;
  }

  /**
   * A row's internal value: the one its file carries, else {@code base + offset} (a row id from the
   * file's {@code row_id_start}, a snapshot from its {@code begin_snapshot}).
   */
  private static long internalValue(
      Group row, String name, OptionalLong base, long offset, DataFileInfo file)
      throws IOException {
    if (row.getType().containsField(name) && row.getFieldRepetitionCount(name) > 0) {
      return row.getLong(name, 0);
    }
    if (base.isEmpty()) {
      throw new IOException(
          "data file "
              + Long.toUnsignedString(file.dataFileId())
              + " has no row_id_start and its rows carry no "
              + name);
    }
    return base.getAsLong() + offset;
  }

  /**
   * The table's fields of an input schema, DuckLake's internal columns left out; a top-level field
   * without a field id takes the id of the top-level column of its name.
   */
  private static List<Type> userFields(MessageType schema, List<ColumnInfo> columns) {
    Map<String, Long> topLevel = new LinkedHashMap<>();
    for (ColumnInfo c : columns) {
      if (c.parentColumn().isEmpty()) {
        topLevel.put(c.name(), c.columnId());
      }
    }
    List<Type> fields = new ArrayList<>();
    for (Type f : schema.getFields()) {
      if (f.getName().equals(ROW_ID) || f.getName().equals(SNAPSHOT_ID)) {
        continue;
      }
      if (f.getId() == null) {
        Long id = topLevel.get(f.getName());
        if (id == null) {
          throw new IllegalArgumentException(
              "the input field '" + f.getName() + "' has no field id and names no column");
        }
        f = f.withId(Math.toIntExact(id));
      }
      fields.add(f);
    }
    return fields;
  }

  /** One of DuckLake's internal columns, a 64-bit integer as DuckDB writes it. */
  static PrimitiveType internal(String name, int fieldId) {
    return Types.optional(PrimitiveTypeName.INT64)
        .as(LogicalTypeAnnotation.intType(64, true))
        .id(fieldId)
        .named(name);
  }
}
