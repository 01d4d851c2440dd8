package dev.moraine.parquet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

/** Reading local Parquet files row by row with parquet-java, without Hadoop. Stateless. */
final class ParquetRows {
  private ParquetRows() {}

  /** The file's schema, from its footer. */
  static MessageType schema(Path file) throws IOException {
    ParquetReadOptions options =
        ParquetReadOptions.builder(new PlainParquetConfiguration())
            .withCodecFactory(ParquetCodecs.INSTANCE)
            .build();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
      return reader.getFileMetaData().getSchema();
    }
  }

  /** A reader of the file's rows, in order. */
  static ParquetReader<Group> open(Path file) throws IOException {
    return new Builder(file).withCodecFactory(ParquetCodecs.INSTANCE).build();
  }

  /**
   * The positions a DuckLake delete file lists: its {@code pos} column (DuckLake writes one delete
   * file per data file, so its {@code file_path} is that data file throughout).
   */
  static List<Long> deletePositions(Path deleteFile) throws IOException {
    List<Long> positions = new ArrayList<>();
    try (ParquetReader<Group> reader = open(deleteFile)) {
      for (Group row = reader.read(); row != null; row = reader.read()) {
        positions.add(row.getLong("pos", 0));
      }
    }
    return positions;
  }

  private static final class Builder extends ParquetReader.Builder<Group> {
    Builder(Path file) {
      super(new LocalInputFile(file), new PlainParquetConfiguration());
    }

    @Override
    protected ReadSupport<Group> getReadSupport() {
      return new GroupReadSupport();
    }
  }
}
