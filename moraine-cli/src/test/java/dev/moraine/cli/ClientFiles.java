package dev.moraine.cli;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongFunction;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Parquet files for the index tests' table of clients, written into the table's directory as a
 * DuckLake writer lays them out: a data file's fields carry their columns' ids, a delete file has
 * DuckLake's {@code file_path} and {@code pos}. The table has {@code id int64}, {@code name
 * varchar} and {@code ok boolean}, and may have {@code u uuid}: a row gives its id and name, {@code
 * ok} is whether the id is even and {@code u} is the id's uuid, as 16 bytes.
 */
final class ClientFiles {
  private final Path tableDir;
  private final LongFunction<UUID> uuidOf;

  ClientFiles(Path tableDir, LongFunction<UUID> uuidOf) {
    this.tableDir = tableDir;
    this.uuidOf = uuidOf;
  }

  static Object[] row(long id, String name) {
    return new Object[] {id, name};
  }

  /** Writes a data file of {@code rows} over the table's {@code columns}, ready to register. */
  NewDataFile dataFile(List<ColumnInfo> columns, String name, Object[]... rows) throws Exception {
    Types.MessageTypeBuilder fields = Types.buildMessage();
    for (ColumnInfo c : columns) {
      int id = (int) c.columnId();
      switch (c.name()) {
        case "id" -> fields.optional(PrimitiveTypeName.INT64).id(id).named("id");
        case "name" ->
            fields
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .id(id)
                .named("name");
        case "ok" -> fields.optional(PrimitiveTypeName.BOOLEAN).id(id).named("ok");
        case "u" ->
            fields
                .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                .length(16)
                .as(LogicalTypeAnnotation.uuidType())
                .id(id)
                .named("u");
        default -> throw new IllegalArgumentException("no file column " + c.name());
      }
    }
    MessageType schema = fields.named("duckdb_schema");
    List<Group> groups = new ArrayList<>();
    SimpleGroupFactory factory = new SimpleGroupFactory(schema);
    for (Object[] r : rows) {
      Group g = factory.newGroup();
      g.add("id", (Long) r[0]);
      if (r[1] != null) {
        g.add("name", (String) r[1]);
      }
      g.add("ok", (Long) r[0] % 2 == 0);
      if (schema.containsField("u")) {
        UUID u = uuidOf.apply((Long) r[0]);
        g.add(
            "u",
            Binary.fromConstantByteArray(
                ByteBuffer.allocate(16)
                    .putLong(u.getMostSignificantBits())
                    .putLong(u.getLeastSignificantBits())
                    .array()));
      }
      groups.add(g);
    }
    Path path = write(name, schema, groups);
    return NewDataFile.parquet(name, rows.length, Files.size(path), 100);
  }

  /** Writes a DuckLake delete file of {@code positions} of the data file {@code target}. */
  NewDeleteFile deleteFile(DataFileInfo target, String name, long... positions) throws Exception {
    MessageType schema =
        Types.buildMessage()
            .required(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .id(2147483646)
            .named("file_path")
            .required(PrimitiveTypeName.INT64)
            .id(2147483645)
            .named("pos")
            .named("duckdb_schema");
    List<Group> groups = new ArrayList<>();
    SimpleGroupFactory factory = new SimpleGroupFactory(schema);
    for (long p : positions) {
      groups.add(
          factory
              .newGroup()
              .append("file_path", tableDir.resolve(target.path()).toString())
              .append("pos", p));
    }
    Path path = write(name, schema, groups);
    return NewDeleteFile.parquet(
        target.dataFileId(), name, positions.length, Files.size(path), 100);
  }

  private Path write(String name, MessageType schema, List<Group> rows) throws Exception {
    Path path = tableDir.resolve(name);
    try (var writer =
        ExampleParquetWriter.builder(new LocalOutputFile(path))
            .withConf(new PlainParquetConfiguration())
            .withType(schema)
            .build()) {
      for (Group g : rows) {
        writer.write(g);
      }
    }
    return path;
  }
}
