package dev.moraine.cli;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;

/**
 * What a data file's registration needs, read from the Parquet footer of a local file: its record
 * count, size, footer length and, per top-level column, size, value count, null count and bounds in
 * DuckLake's textual form.
 *
 * @param columns per column name, in the file's column order
 */
record FooterStats(
    long recordCount, long fileSizeBytes, long footerSize, Map<String, Column> columns) {

  /** One column's statistics summed over the file's row groups; bounds absent when all null. */
  record Column(long sizeBytes, long valueCount, long nullCount, String min, String max) {}

  /**
   * Reads the footer of the Parquet file at {@code path}.
   *
   * @throws IOException if the file cannot be read or is not Parquet; nothing is changed
   */
  static FooterStats read(Path path) throws IOException {
    byte[] footer = footerBytes(path);
    // The footer alone is decoded: parquet-java's file reader would build Hadoop's codecs.
    ParquetMetadata metadata =
        new ParquetMetadataConverter()
            .readParquetMetadata(
                new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
    long records = 0;
    Map<String, Column> columns = new LinkedHashMap<>();
    for (BlockMetaData block : metadata.getBlocks()) {
      records += block.getRowCount();
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        String name = chunk.getPath().toArray()[0];
        columns.merge(name, column(chunk), FooterStats::combine);
      }
    }
    return new FooterStats(records, Files.size(path), footer.length, columns);
  }

  /**
   * The statistics to register for {@code columns}, matched by name, each with DuckLake's
   * value_count (the non-null values; a footer's value count includes the nulls); a column the file
   * lacks gets none.
   */
  List<NewFileColumnStats> registrationStats(List<ColumnInfo> columns) {
    List<NewFileColumnStats> stats = new ArrayList<>();
    for (ColumnInfo c : columns) {
      Column s = this.columns.get(c.name());
      if (s != null) {
        stats.add(
            NewFileColumnStats.of(
                c.columnId(),
                s.sizeBytes(),
                s.valueCount() - s.nullCount(),
                s.nullCount(),
                s.min(),
                s.max()));
      }
    }
    return stats;
  }

  private static Column column(ColumnChunkMetaData chunk) {
    Statistics<?> stats = chunk.getStatistics();
    boolean bounded = stats != null && stats.hasNonNullValue();
    return new Column(
        chunk.getTotalSize(),
        chunk.getValueCount(),
        stats == null ? 0 : stats.getNumNulls(),
        bounded ? text(stats.genericGetMin()) : null,
        bounded ? text(stats.genericGetMax()) : null);
  }

  private static Column combine(Column a, Column b) {
    return new Column(
        a.sizeBytes() + b.sizeBytes(),
        a.valueCount() + b.valueCount(),
        a.nullCount() + b.nullCount(),
        pick(a.min(), b.min(), true),
        pick(a.max(), b.max(), false));
  }

  /** Bounds of several row groups: only the demo's single-group files reach this with both set. */
  private static String pick(String a, String b, boolean min) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    int order = compareBound(a, b);
    return (min ? order <= 0 : order >= 0) ? a : b;
  }

  private static int compareBound(String a, String b) {
    try {
      return Double.compare(Double.parseDouble(a), Double.parseDouble(b));
    } catch (NumberFormatException text) {
      return a.compareTo(b);
    }
  }

  private static String text(Object value) {
    return value instanceof Binary binary ? binary.toStringUsingUTF8() : String.valueOf(value);
  }

  /**
   * The footer's metadata bytes: the little-endian length before the closing magic says how many
   * precede it.
   */
  private static byte[] footerBytes(Path path) throws IOException {
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = file.size();
      if (size < 12) {
        throw new IOException(path + " is not a Parquet file (" + size + " bytes)");
      }
      ByteBuffer tail = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      readFully(file, tail, size - 8);
      int length = tail.getInt(0);
      byte[] magic = new byte[4];
      tail.get(4, magic);
      if (!"PAR1".equals(new String(magic, StandardCharsets.US_ASCII))) {
        throw new IOException(path + " is not a Parquet file (no closing magic)");
      }
      if (length <= 0 || length > size - 12) {
        throw new IOException(
            path + " has a footer length of " + length + " in " + size + " bytes");
      }
      ByteBuffer footer = ByteBuffer.allocate(length);
      readFully(file, footer, size - 8 - length);
      return footer.array();
    }
  }

  private static void readFully(FileChannel file, ByteBuffer into, long position)
      throws IOException {
    while (into.hasRemaining()) {
      if (file.read(into, position + into.position()) < 0) {
        throw new IOException("unexpected end of file");
      }
    }
  }
}
