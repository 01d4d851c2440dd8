package dev.moraine.core.lake;

import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.WriteBatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;

/**
 * The writes that create a catalog in an empty store (RFC 0002 §11, pinned by §13.1): the format
 * stamp, snapshot 0 with DuckLake's initial counters and {@code created_schema:"main"}, the {@code
 * main} schema, the global options, and the head, in that order and in one batch. No changelog, no
 * schema_version record and no table stats are written for snapshot 0.
 */
public final class Bootstrap {
  /** The only format version this library reads and the one it stamps. */
  public static final long FORMAT_VERSION = 9;

  /** What a bootstrap stamps as {@code writer_version} (RFC 0002 §16, deviation 4). */
  public static final String WRITER_VERSION = "moraine-java " + libraryVersion();

  private Bootstrap() {}

  /**
   * The bootstrap batch.
   *
   * @param options where {@code data_path} and {@code encrypted} come from
   * @param timeMicros snapshot 0's time, microseconds since the epoch
   * @param schemaUuid the {@code main} schema's UUID, lowercase hyphenated
   */
  public static WriteBatch batch(CatalogOptions options, long timeMicros, String schemaUuid) {
    return batch(options, timeMicros, schemaUuid, Optional.empty());
  }

  /**
   * The bootstrap batch of a store whose write-ahead log is kept in {@code walStore} (the store's
   * own object store when empty), recorded in the global option {@link WalStoreRecord#OPTION}.
   */
  public static WriteBatch batch(
      CatalogOptions options, long timeMicros, String schemaUuid, Optional<String> walStore) {
    WriteBatch batch = new WriteBatch();
    put(
        batch,
        SysKey.FORMAT,
        FormatValue.newBuilder()
            .setFormatVersion(FORMAT_VERSION)
            .setWriterVersion(WRITER_VERSION)
            .build());
    put(
        batch,
        new SnapshotKey(0),
        SnapshotValue.newBuilder()
            .setSnapshotId(0)
            .setSnapshotTimeMicros(timeMicros)
            .setSchemaVersion(0)
            .setNextCatalogId(1)
            .setNextFileId(0)
            .setChangesMade("created_schema:\"main\"")
            .build());
    put(
        batch,
        CurrentKey.of(new EntityKey.Schema(0)),
        SchemaValue.newBuilder()
            .setSchemaId(0)
            .setSchemaUuid(schemaUuid)
            .setBeginSnapshot(0)
            .setSchemaName("main")
            .setPath("main/")
            .setPathIsRelative(true)
            .build());
    OptionScopeValue.Builder global =
        OptionScopeValue.newBuilder()
            .putOptions("encrypted", options.encrypted() ? "true" : "false");
    options.dataPath().ifPresent(p -> global.putOptions("data_path", p));
    walStore.ifPresent(w -> global.putOptions(WalStoreRecord.OPTION, w));
    put(batch, CurrentKey.of(EntityKey.OptionScope.global()), global.build());
    put(batch, SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(0).setBatchSeq(0).build());
    return batch;
  }

  private static void put(WriteBatch batch, Key key, com.google.protobuf.Message value) {
    batch.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  private static String libraryVersion() {
    Properties p = new Properties();
    try (InputStream in =
        Bootstrap.class.getResourceAsStream("/dev/moraine/core/moraine-version.properties")) {
      if (in == null) {
        throw new IllegalStateException("moraine-version.properties is missing from the jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }
}
