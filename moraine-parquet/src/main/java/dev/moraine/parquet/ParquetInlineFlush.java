package dev.moraine.parquet;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.Versioned;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writes the files of a flush of a table's inlined data, as stock DuckLake 1.5.5's {@code
 * ducklake_flush_inlined_data} writes them (RFC 0005 §7), and returns the {@link InlineFlush}
 * {@link Transaction#flushInlined} takes:
 *
 * <ul>
 *   <li>the data files: one for the rows of each schema version inlined before the table was
 *       partitioned, and one for each partition of the rows inlined since, in the order of their
 *       first row ids; each holds its rows, deleted ones included, in row-id order, with the
 *       table's fields as DuckDB writes them ({@link FlushSchema}), then each row's id in {@code
 *       _ducklake_internal_row_id} and its inserting snapshot in {@code
 *       _ducklake_internal_snapshot_id}. A partition's file goes into the directories {@code
 *       <key>=<value>/...} of the table's directory (the column's name for an identity key, the
 *       transform's otherwise; the value percent-encoded as stock encodes it) and carries the
 *       partition values;
 *   <li>the delete file of each data file's rows deleted while inlined: their positions in it;
 *   <li>for each data file with rows deleted inline, a delete file of those positions.
 * </ul>
 *
 * A delete file holds {@code file_path} (the data file's local path), {@code pos} and {@code
 * _ducklake_internal_snapshot_id} (the snapshot of each deletion), with DuckLake's field ids, in
 * position order. Pages are Snappy-compressed. The flush reads {@code through} the snapshot given,
 * so rows a later commit inlines stay inlined. Stateless.
 */
public final class ParquetInlineFlush {
  static final int DELETE_PATH_FIELD = 2147483646;
  static final int DELETE_POS_FIELD = 2147483645;

  private ParquetInlineFlush() {}

  /**
   * Writes, in {@code tableDirectory} (the table's local directory), the files of a flush of table
   * {@code tableId}'s inlined data as {@code snapshot} holds it, each named {@code
   * ducklake-<uuid>.parquet} ({@code -delete.parquet} for delete files).
   *
   * @return the flush to register, or empty when the table has nothing inlined and no inline
   *     deletions
   * @throws IllegalArgumentException if the table is not live at the snapshot, its inlined rows
   *     share row ids (an inline update), a column's type has no inline form, or a row inlined
   *     while the table was partitioned has a NULL partition value (the lake cannot record one) or
   *     one whose text stock would write is not known here ({@code PartitionValueTexts}); nothing
   *     is written
   * @throws IOException if a file cannot be written; the files written so far are deleted
   */
  public static Optional<InlineFlush> write(
      CatalogSnapshot snapshot, long tableId, Path tableDirectory) throws IOException {
    if (snapshot.table(tableId).isEmpty()) {
      throw new IllegalArgumentException(
          "table " + Long.toUnsignedString(tableId) + " is not live at this snapshot");
    }
    List<Versioned<InlinedRows.Row>> rows = snapshot.history().inlinedRows(tableId);
    Map<Long, TreeMap<Long, Long>> fileDeletes = fileDeletes(snapshot, tableId);
    if (rows.isEmpty() && fileDeletes.isEmpty()) {
      return Optional.empty();
    }
    List<FlushGroup> groups = FlushGroup.of(snapshot, tableId, rows);
    List<Path> written = new ArrayList<>();
    boolean done = false;
    try {
      InlineFlush flush = InlineFlush.fileDeletesOnly();
      for (FlushGroup group : groups) {
        List<ColumnInfo> columns = columnsOf(snapshot, tableId, group.rows());
        String name = "ducklake-" + UUID.randomUUID();
        String relative = group.directory() + name + ".parquet";
        Path dataPath = tableDirectory.resolve(relative);
        Files.createDirectories(dataPath.getParent());
        written.add(dataPath);
        NewDataFile data =
            writeRows(columns, group.rows(), dataPath, relative)
                .withPartitionValues(group.partitionValues());
        InlineFlush.Part part = InlineFlush.Part.of(data, group.rowIds());
        TreeMap<Long, Long> deleted = new TreeMap<>();
        for (int i = 0; i < group.rows().size(); i++) {
          OptionalLong end = group.rows().get(i).endSnapshot();
          if (end.isPresent()) {
            deleted.put((long) i, end.getAsLong());
          }
        }
        if (!deleted.isEmpty()) {
          String deletesName = group.directory() + name + "-delete.parquet";
          Path deletes = tableDirectory.resolve(deletesName);
          written.add(deletes);
          part =
              part.withRowDeletes(writeDeletes(dataPath.toString(), deleted, deletes, deletesName));
        }
        flush = flush.withPart(part);
      }
      for (Map.Entry<Long, TreeMap<Long, Long>> e : fileDeletes.entrySet()) {
        DataFileInfo target = dataFile(snapshot, tableId, e.getKey());
        String name = "ducklake-" + UUID.randomUUID() + "-delete.parquet";
        Path deletes = tableDirectory.resolve(name);
        written.add(deletes);
        String targetPath =
            target.pathIsRelative()
                ? tableDirectory.resolve(target.path()).toString()
                : CompactionInput.localPath(target.path()).toString();
        flush =
            flush.withFileDeletes(
                e.getKey(), writeDeletes(targetPath, e.getValue(), deletes, name));
      }
      done = true;
      return Optional.of(flush.through(snapshot.snapshotId()));
    } finally {
      if (!done) {
        // Nothing refers to the files of a flush that failed part way: they go.
        for (Path p : written) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * The inline deletions of data-file rows at the snapshot, by data file id, each a map from the
   * position deleted to the snapshot that deleted it.
   */
  private static Map<Long, TreeMap<Long, Long>> fileDeletes(
      CatalogSnapshot snapshot, long tableId) {
    Map<Long, TreeMap<Long, Long>> out = new TreeMap<>(Long::compareUnsigned);
    for (InlinedFileDelete d : snapshot.history().inlinedFileDeletes()) {
      if (d.tableId() == tableId) {
        // An inline file deletion's row id is the row's position in its file.
        out.computeIfAbsent(d.dataFileId(), f -> new TreeMap<>()).put(d.rowId(), d.beginSnapshot());
      }
    }
    return out;
  }

  /** The data file {@code id} of the table, live or ended, as the snapshot's history holds it. */
  private static DataFileInfo dataFile(CatalogSnapshot snapshot, long tableId, long id) {
    DataFileInfo found = null;
    for (Versioned<DataFileInfo> v : snapshot.history().dataFiles()) {
      if (v.version().tableId() == tableId && v.version().dataFileId() == id) {
        found = v.version();
      }
    }
    if (found == null) {
      throw new IllegalArgumentException(
          "rows of data file "
              + Long.toUnsignedString(id)
              + " are deleted inline, but no such file");
    }
    return found;
  }

  /**
   * The table's columns (members included) when a group's inlined rows were written: those live at
   * the first row's snapshot (the rows of a group share one schema version).
   */
  private static List<ColumnInfo> columnsOf(
      CatalogSnapshot snapshot, long tableId, List<Versioned<InlinedRows.Row>> rows) {
    long at = rows.get(0).version().beginSnapshot();
    List<ColumnInfo> columns = new ArrayList<>();
    for (Versioned<ColumnInfo> v : snapshot.history().columns()) {
      ColumnInfo c = v.version();
      if (c.tableId() == tableId
          && Long.compareUnsigned(c.beginSnapshot(), at) <= 0
          && (v.endSnapshot().isEmpty()
              || Long.compareUnsigned(v.endSnapshot().getAsLong(), at) > 0)) {
        columns.add(c);
      }
    }
    return columns;
  }

  private static NewDataFile writeRows(
      List<ColumnInfo> columns,
      List<Versioned<InlinedRows.Row>> rows,
      Path output,
      String registeredPath)
      throws IOException {
    List<Type> user = FlushSchema.fields(columns);
    List<Type> fields = new ArrayList<>(user);
    fields.add(
        ParquetCompaction.internal(ParquetCompaction.ROW_ID, ParquetCompaction.ROW_ID_FIELD));
    fields.add(
        ParquetCompaction.internal(
            ParquetCompaction.SNAPSHOT_ID, ParquetCompaction.SNAPSHOT_ID_FIELD));
    MessageType schema = new MessageType("duckdb_schema", fields);
    MessageType userSchema = new MessageType("duckdb_schema", user);
    Map<Integer, String> columnTypes = new HashMap<>();
    columns.forEach(c -> columnTypes.put(Math.toIntExact(c.columnId()), c.type()));
    Map<Long, String> typesById = new HashMap<>();
    columns.forEach(c -> typesById.put(c.columnId(), c.type()));
    // The values go into a row of the table's fields first, and are copied from there into the
    // file's row, so that the statistics are counted by the same code as a compaction's.
    RowCopier copier = new RowCopier(user, columnTypes);
    SimpleGroupFactory values = new SimpleGroupFactory(userSchema);
    SimpleGroupFactory out = new SimpleGroupFactory(schema);
    List<ColumnInfo> topLevel = FlushSchema.children(columns, null);
    List<InlinedRows.Row> typed =
        new InlinedRows(0, rows.stream().map(Versioned::version).toList())
            .withColumnTypes(typesById)
            .rows();
    Map<Integer, Long> sizes = new HashMap<>();
    try (ParquetWriter<Group> writer = ParquetOutput.open(output, schema)) {
      for (InlinedRows.Row row : typed) {
        Group in = values.newGroup();
        List<Object> cells = row.typedValues();
        if (cells.size() != topLevel.size()) {
          throw new IllegalArgumentException(
              "inlined row "
                  + Long.toUnsignedString(row.rowId())
                  + " has "
                  + cells.size()
                  + " values for "
                  + topLevel.size()
                  + " columns");
        }
        for (int i = 0; i < cells.size(); i++) {
          FlushValues.add(in, user.get(i), cells.get(i));
        }
        Group g = out.newGroup();
        copier.copy(in, g);
        g.add(ParquetCompaction.ROW_ID, row.rowId());
        g.add(ParquetCompaction.SNAPSHOT_ID, row.beginSnapshot());
        writer.write(g);
      }
      writer.close();
      sizes.putAll(ParquetOutput.columnSizes(writer));
    }
    return new NewDataFile(
        registeredPath,
        true,
        "parquet",
        rows.size(),
        Files.size(output),
        ParquetOutput.footerSize(output),
        Optional.empty(),
        copier.stats(sizes),
        List.of());
  }

  /**
   * Writes a delete file of {@code positions} (position to deleting snapshot) of {@code target}.
   */
  private static FlushDeleteFile writeDeletes(
      String target, TreeMap<Long, Long> positions, Path output, String registeredPath)
      throws IOException {
    MessageType schema =
        new MessageType(
            "duckdb_schema",
            org.apache.parquet.schema.Types.optional(
                    org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY)
                .as(org.apache.parquet.schema.LogicalTypeAnnotation.stringType())
                .id(DELETE_PATH_FIELD)
                .named("file_path"),
            org.apache.parquet.schema.Types.optional(
                    org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64)
                .as(org.apache.parquet.schema.LogicalTypeAnnotation.intType(64, true))
                .id(DELETE_POS_FIELD)
                .named("pos"),
            ParquetCompaction.internal(
                ParquetCompaction.SNAPSHOT_ID, ParquetCompaction.SNAPSHOT_ID_FIELD));
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    Binary path = Binary.fromString(target);
    try (ParquetWriter<Group> writer = ParquetOutput.open(output, schema)) {
      for (Map.Entry<Long, Long> p : positions.entrySet()) {
        Group g = groups.newGroup();
        g.add("file_path", path);
        g.add("pos", p.getKey());
        g.add(ParquetCompaction.SNAPSHOT_ID, p.getValue());
        writer.write(g);
      }
    }
    return FlushDeleteFile.parquet(
        registeredPath, Files.size(output), ParquetOutput.footerSize(output));
  }
}
