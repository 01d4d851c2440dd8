package dev.moraine.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writes the demo's Parquet files: rows of (id int64, city varchar, amount double), uncompressed,
 * through parquet-java's local-file output (no Hadoop needed). The rows of file {@code n} are a
 * pure function of {@code n}, so a file's statistics are predictable.
 */
final class DemoParquetWriter {

  /** The Parquet schema of the demo table; its column names match the catalog's. */
  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message event { required int64 id; optional binary city (STRING);"
              + " required double amount; }");

  private static final String[] CITIES = {"Bergen", "Lyon", "Osaka", "Quito", "Tromso"};

  private DemoParquetWriter() {}

  /**
   * Writes file {@code n} with {@code rows} rows at {@code path}, which must not exist. Ids run
   * from {@code n * rows}; every fifth row has no city.
   *
   * @throws IOException if the file exists or cannot be written; a partial file may remain
   */
  static void write(Path path, int n, int rows) throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(path))
            .withConf(new PlainParquetConfiguration())
            .withType(SCHEMA)
            .withCodecFactory(new UncompressedCodecs())
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withWriteMode(ParquetFileWriter.Mode.CREATE)
            .build()) {
      for (int i = 0; i < rows; i++) {
        long id = (long) n * rows + i;
        Group row = groups.newGroup().append("id", id);
        if (i % 5 != 4) {
          row.append("city", CITIES[(int) (id % CITIES.length)]);
        }
        writer.write(row.append("amount", (id % 1000) / 4.0));
      }
    }
  }
}
