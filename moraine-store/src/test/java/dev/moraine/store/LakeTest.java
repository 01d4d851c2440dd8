package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.UnsupportedFormatException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-call door on local directories: it creates and opens lakes, owns the handle it opened,
 * and refuses every location that is not a lake with a one-line typed error that writes nothing.
 * The S3 side is {@code s3.S3LakeTest}.
 */
class LakeTest {
  @TempDir Path dir;

  /** Every file and folder under {@code root}, relative to it. */
  private static List<String> tree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  /** The refusal {@code open} throws: of {@code type}, with {@code code}, in one line. */
  private static <T extends MoraineException> T refused(
      Class<T> type, ErrorCode code, Executable open) {
    T e = assertThrows(type, open);
    assertEquals(code, e.code(), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  @Test
  void open_createsALakeWhereNothingIsAndReopensIt() {
    Path lake = dir.resolve("new").resolve("lake");
    long table;
    try (Catalog catalog = Lake.open(LakeLocation.of(lake.toString()))) {
      assertTrue(catalog.createdByThisOpen());
      table =
          catalog
              .commitReturning(
                  tx -> tx.createTable(0, "events", List.of(ColumnDef.of("id", "int64"))))
              .value();
    }
    assertTrue(Files.isDirectory(lake.resolve("manifest")), "the database is at the location");
    try (Catalog again = Lake.open(LakeLocation.of(lake))) {
      assertFalse(again.createdByThisOpen());
      assertEquals("events", again.snapshot().table(table).orElseThrow().name());
    }
    try (ReadOnlyCatalog reader = Lake.openReadOnly(LakeLocation.of(lake.toUri().toString()))) {
      assertEquals("events", reader.snapshot().table(table).orElseThrow().name());
    }
  }

  @Test
  void aClosedCatalogRefusesCallsAndClosesAgainQuietly() {
    // That the handle is closed with it, and after it, is OwningCatalogsTest's.
    Path lake = dir.resolve("lake");
    Catalog catalog = Lake.open(LakeLocation.of(lake));
    catalog.close();
    catalog.close();
    assertEquals(ErrorCode.CLOSED, assertThrows(ClosedException.class, catalog::head).code());
    ReadOnlyCatalog reader = Lake.openReadOnly(LakeLocation.of(lake));
    reader.close();
    reader.close();
    assertThrows(ClosedException.class, reader::snapshot);
    assertTrue(reader.toString().contains(lake.toString()), reader.toString());
  }

  @Test
  void aReadOnlyCatalogIsNoWriter() {
    Path lake = dir.resolve("lake");
    Lake.open(LakeLocation.of(lake)).close();
    try (ReadOnlyCatalog reader = Lake.openReadOnly(LakeLocation.of(lake))) {
      assertFalse(reader instanceof Catalog);
    }
  }

  @Test
  void openReadOnly_whereNothingIs_createsNothing() throws IOException {
    Path missing = dir.resolve("no").resolve("lake");
    refused(
        NotFoundException.class,
        ErrorCode.NOT_INITIALIZED,
        () -> Lake.openReadOnly(LakeLocation.of(missing)));
    assertFalse(Files.exists(dir.resolve("no")));
    Path empty = Files.createDirectory(dir.resolve("empty"));
    refused(
        NotFoundException.class,
        ErrorCode.NOT_INITIALIZED,
        () -> Lake.openReadOnly(LakeLocation.of(empty)));
    assertEquals(List.of(""), tree(empty));
  }

  @Test
  void anUnknownScheme_isRefusedBeforeAnythingIsOpened() {
    for (String location : List.of("gs://bucket/lake", "hdfs://namenode/lakes/a", "S3A://b/x")) {
      LakeLocationException e =
          refused(
              LakeLocationException.class,
              ErrorCode.INVALID_LOCATION,
              () -> LakeLocation.of(location));
      assertTrue(e.getMessage().contains("unknown scheme"), e.getMessage());
      refused(
          LakeLocationException.class,
          ErrorCode.INVALID_LOCATION,
          () -> LakeLocation.of(location, S3Credentials.anonymous()));
    }
  }

  @Test
  void anS3LocationWithoutABucket_isRefused() {
    for (String location : List.of("s3://", "s3:///lakes/sales", "s3:////")) {
      LakeLocationException e =
          refused(
              LakeLocationException.class,
              ErrorCode.INVALID_LOCATION,
              () -> LakeLocation.of(location, S3Credentials.defaultChain()));
      assertTrue(e.getMessage().startsWith(location + ": "), e.getMessage());
    }
  }

  @Test
  void theCredentialChoiceIsExplicitAndOnlyForS3() {
    LakeLocationException none =
        refused(
            LakeLocationException.class,
            ErrorCode.INVALID_LOCATION,
            () -> LakeLocation.of("s3://bucket/lake"));
    assertTrue(none.getMessage().contains("S3Credentials.defaultChain()"), none.getMessage());
    refused(
        LakeLocationException.class,
        ErrorCode.INVALID_LOCATION,
        () -> LakeLocation.of("s3://bucket/lake", null));
    refused(
        LakeLocationException.class,
        ErrorCode.INVALID_LOCATION,
        () -> LakeLocation.of(dir.toString(), S3Credentials.anonymous()));
    refused(
        LakeLocationException.class,
        ErrorCode.INVALID_LOCATION,
        () -> LakeLocation.of(dir).withEndpoint("http://127.0.0.1:9000", true));
    refused(
        LakeLocationException.class,
        ErrorCode.INVALID_LOCATION,
        () -> LakeLocation.of("file://host/lake"));
  }

  @Test
  void s3Locations_nameTheBucketAndPrefix() {
    LakeLocation location =
        LakeLocation.of("s3://my-bucket/lakes/sales/", S3Credentials.defaultChain())
            .withRegion("eu-west-1");
    ObjectStoreSpec.S3 s3 = (ObjectStoreSpec.S3) location.objectStore();
    assertEquals("my-bucket", s3.bucket());
    assertEquals("lakes/sales", s3.prefix());
    assertEquals("eu-west-1", s3.region());
    assertEquals(new S3Credentials.DefaultChain(), s3.credentials());
    assertEquals("", location.storeConfig().path());
    assertNull(
        ((ObjectStoreSpec.S3)
                LakeLocation.of("s3://my-bucket", S3Credentials.anonymous()).objectStore())
            .prefix());
  }

  @Test
  void aDirectoryHoldingOtherFiles_isNotALakeAndStaysAsItIs() throws IOException {
    Path other = Files.createDirectory(dir.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "not a lake");
    Files.createDirectory(other.resolve("data"));
    List<String> before = tree(other);
    for (Executable open :
        List.<Executable>of(
            () -> Lake.open(LakeLocation.of(other)),
            () -> Lake.openReadOnly(LakeLocation.of(other)))) {
      LakeLocationException e = refused(LakeLocationException.class, ErrorCode.NOT_A_LAKE, open);
      assertTrue(e.getMessage().contains("no SlateDB database"), e.getMessage());
    }
    assertEquals(before, tree(other));
    Path file = Files.writeString(dir.resolve("file"), "not a lake");
    refused(
        LakeLocationException.class, ErrorCode.NOT_A_LAKE, () -> Lake.open(LakeLocation.of(file)));
    assertEquals("not a lake", Files.readString(file));
  }

  @Test
  void aSlateDbDatabaseOfOtherData_isNotALakeAndGetsNoCatalog() {
    Path db = dir.resolve("db");
    SlateStoreProvider provider = new SlateStoreProvider(LakeLocation.of(db).storeConfig());
    byte[] key = "someone-else".getBytes(StandardCharsets.UTF_8);
    try (KvStore store = provider.openWriter()) {
      WriteReceipt receipt = store.write(new WriteBatch().put(key, new byte[] {1}));
      // The flush timer is off: the write becomes durable only when the log is flushed.
      store.flushWal();
      store.awaitDurable(receipt);
    }
    for (Executable open :
        List.<Executable>of(
            () -> Lake.open(LakeLocation.of(db)), () -> Lake.openReadOnly(LakeLocation.of(db)))) {
      LakeLocationException e = refused(LakeLocationException.class, ErrorCode.NOT_A_LAKE, open);
      assertTrue(e.getMessage().contains("no Moraine catalog"), e.getMessage());
    }
    try (var reader = provider.openReader(ReaderMode.followLatest())) {
      assertArrayEquals(new byte[] {1}, reader.get(key));
      assertNull(reader.get(KeyCodec.encode(SysKey.FORMAT)), "no catalog was written");
    }
  }

  @Test
  void aLakeOfAnotherFormat_isRefusedAndItsWriterIsNotFenced() {
    Path lake = dir.resolve("lake");
    SlateStoreProvider provider = new SlateStoreProvider(LakeLocation.of(lake).storeConfig());
    byte[] stamp = KeyCodec.encode(SysKey.FORMAT);
    try (KvStore holder = provider.openWriter()) {
      holder.write(
          new WriteBatch()
              .put(
                  stamp,
                  ValueCodec.encode(
                      SysKey.FORMAT,
                      FormatValue.newBuilder()
                          .setFormatVersion(10)
                          .setWriterVersion("moraine 9.9.9")
                          .build())));
      holder.flushWal();
      for (Executable open :
          List.<Executable>of(
              () -> Lake.open(LakeLocation.of(lake)),
              () -> Lake.openReadOnly(LakeLocation.of(lake)))) {
        UnsupportedFormatException e =
            refused(UnsupportedFormatException.class, ErrorCode.UNSUPPORTED_FORMAT, open);
        assertEquals(OptionalLong.of(10), e.foundFormat());
      }
      // The lake's own writer was not fenced: it still writes, and its stamp is unchanged.
      byte[] key = "still-writing".getBytes(StandardCharsets.UTF_8);
      WriteReceipt receipt = holder.write(new WriteBatch().put(key, new byte[] {2}));
      holder.flushWal();
      holder.awaitDurable(receipt);
      assertArrayEquals(new byte[] {2}, holder.get(key));
      assertEquals(
          10,
          ValueCodec.decode(SysKey.FORMAT, holder.get(stamp), FormatValue.class)
              .getFormatVersion());
    }
  }
}
