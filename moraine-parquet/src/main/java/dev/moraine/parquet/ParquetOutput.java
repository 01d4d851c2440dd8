package dev.moraine.parquet;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/** Writing a local Parquet file as DuckDB writes its own: Snappy pages, no Hadoop. Stateless. */
final class ParquetOutput {
  private ParquetOutput() {}

  /** A writer of a new file at {@code output}, which must not exist. */
  static ParquetWriter<Group> open(Path output, MessageType schema) throws IOException {
    return ExampleParquetWriter.builder(new LocalOutputFile(output))
        .withConf(new PlainParquetConfiguration())
        .withType(schema)
        .withCodecFactory(ParquetCodecs.INSTANCE)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withWriteMode(ParquetFileWriter.Mode.CREATE)
        .build();
  }

  /** The bytes of each field id's column chunks, summed over the row groups of a closed writer. */
  static Map<Integer, Long> columnSizes(ParquetWriter<Group> closed) {
    Map<Integer, Long> sizes = new HashMap<>();
    for (BlockMetaData block : closed.getFooter().getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        Type.ID id = chunk.getPrimitiveType().getId();
        if (id != null) {
          sizes.merge(id.intValue(), chunk.getTotalSize(), Long::sum);
        }
      }
    }
    return sizes;
  }

  /** The length of the file's footer metadata, from the four bytes before the closing magic. */
  static long footerSize(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      f.seek(f.length() - 8);
      byte[] b = new byte[4];
      f.readFully(b);
      return (b[0] & 0xffL) | (b[1] & 0xffL) << 8 | (b[2] & 0xffL) << 16 | (b[3] & 0xffL) << 24;
    }
  }
}
