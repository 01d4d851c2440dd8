package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code moraine dump}: the JSON of a lake on standard output; every refusal is one line on
 * standard error with exit status 1; and nothing is ever created or changed on disk.
 */
class DumpCommandTest {

  @TempDir Path dir;

  private static void assertRefused(Run run, String expectedPart) {
    assertEquals(FailureReport.FAILED, run.status(), run.err());
    assertEquals("", run.out());
    String[] lines = run.err().strip().split("\\R");
    assertEquals(1, lines.length, run.err());
    assertTrue(lines[0].startsWith("moraine dump: "), lines[0]);
    assertTrue(lines[0].contains(expectedPart), lines[0]);
  }

  /** Every file and folder under {@code root} with its size and modification time. */
  private static SortedMap<String, String> tree(Path root) throws IOException {
    SortedMap<String, String> entries = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        entries.put(
            root.relativize(p).toString(),
            (a.isDirectory() ? "dir " : a.size() + " bytes ") + a.lastModifiedTime());
      }
    }
    return entries;
  }

  private static StoreConfig config(Path lake, String path) {
    return StoreConfig.of(ObjectStoreSpec.localDirectory(lake), path);
  }

  /** A lake created by Java's bootstrap: snapshot 0 only. */
  private static Path newLake(Path lake, String path) {
    try (KvStore store = new SlateStoreProvider(config(lake, path)).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertTrue(catalog.createdByThisOpen());
    }
    return lake;
  }

  @Test
  void aLake_isPrintedAsOneJsonLine_andLeftAsItWas() throws IOException {
    Path lake = newLake(dir.resolve("lake"), "");
    SortedMap<String, String> before = tree(lake);
    Run run = run("dump", lake.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().endsWith("}\n"), run.out());
    assertEquals(1, run.out().split("\n").length, run.out());
    assertTrue(
        run.out().startsWith("{\"format\":\"moraine-dump-v1\",\"head\":0,\"options\":["),
        run.out());
    assertTrue(run.out().contains("\"snapshots\":[{\"macros\":[],\"record\":{"), run.out());
    assertTrue(run.out().contains("{\"id\":0,\"name\":\"main\",\"tags\":[]}"), run.out());
    assertEquals(before, tree(lake));
  }

  @Test
  void atTheHead_isTheSameSnapshot() {
    Path lake = newLake(dir.resolve("lake"), "");
    Run all = run("dump", lake.toString());
    Run at = run("dump", lake.toString(), "--at", "0");
    assertEquals(0, at.status(), at.err());
    assertEquals(all.out(), at.out());
  }

  @Test
  void aMissingDirectory_isRefused_andNotCreated() {
    Path missing = dir.resolve("no/such/lake");
    assertRefused(run("dump", missing.toString()), "the directory does not exist");
    assertFalse(Files.exists(dir.resolve("no")));
  }

  @Test
  void aFile_isRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("file"), "not a lake");
    assertRefused(run("dump", file.toString()), "not a directory");
    assertEquals("not a lake", Files.readString(file));
  }

  @Test
  void anEmptyDirectory_isRefused_andStaysEmpty() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    assertRefused(run("dump", empty.toString()), "no SlateDB database");
    try (Stream<Path> inside = Files.list(empty)) {
      assertEquals(0, inside.count());
    }
  }

  @Test
  void aStoreWithoutACatalog_isRefused_andLeftAsItWas() throws IOException {
    Path store = dir.resolve("plain-store");
    try (KvStore kv = new SlateStoreProvider(config(store, "")).openWriter()) {
      var receipt =
          kv.write(
              new WriteBatch()
                  .put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)));
      kv.flushWal();
      kv.awaitDurable(receipt);
    }
    SortedMap<String, String> before = tree(store);
    assertRefused(run("dump", store.toString()), "holds no catalog");
    assertEquals(before, tree(store));
  }

  @Test
  void anIdAboveTheHead_isRefused_andTheLakeLeftAsItWas() throws IOException {
    Path lake = newLake(dir.resolve("lake"), "");
    SortedMap<String, String> before = tree(lake);
    assertRefused(run("dump", lake.toString(), "--at", "1"), "snapshot 1 does not exist");
    assertEquals(before, tree(lake));
  }

  @Test
  void anIdThatIsNotANumber_isRefused() {
    Path lake = newLake(dir.resolve("lake"), "");
    assertRefused(run("dump", lake.toString(), "--at", "-1"), "--at must be a snapshot id");
    assertRefused(run("dump", lake.toString(), "--at", "head"), "--at must be a snapshot id");
  }

  @Test
  void anExpiredId_isRefused_andLeftOutOfTheWholeDump() throws IOException {
    Path lake = newLake(dir.resolve("lake"), "");
    expireSnapshotZeroBehindSnapshotOne(lake);
    SortedMap<String, String> before = tree(lake);
    assertRefused(run("dump", lake.toString(), "--at", "0"), "snapshot 0 has been expired");
    Run all = run("dump", lake.toString());
    assertEquals(0, all.status(), all.err());
    assertTrue(all.out().contains("\"head\":1,"), all.out());
    assertFalse(all.out().contains("\"snapshot_id\":0"), all.out());
    assertTrue(all.out().contains("\"snapshot_id\":1"), all.out());
    assertEquals(before, tree(lake));
  }

  @Test
  void aLakeOneLevelDown_needsItsPath() throws IOException {
    Path lake = newLake(dir.resolve("lake"), "catalog");
    assertRefused(run("dump", lake.toString()), "no SlateDB database at store path ''");
    Run run = run("dump", lake.toString(), "--path", "catalog");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("{\"format\":\"moraine-dump-v1\""), run.out());
  }

  /**
   * What an expiry leaves: snapshot 1 (a copy of snapshot 0's record) at the head, and snapshot 0's
   * record gone. Written as raw records, since commits are not part of this module's tests.
   */
  private static void expireSnapshotZeroBehindSnapshotOne(Path lake) {
    try (KvStore kv = new SlateStoreProvider(config(lake, "")).openWriter()) {
      SnapshotKey zero = new SnapshotKey(0);
      SnapshotKey one = new SnapshotKey(1);
      SnapshotValue first =
          ValueCodec.decode(zero, kv.get(KeyCodec.encode(zero)), SnapshotValue.class);
      HeadValue head =
          ValueCodec.decode(SysKey.HEAD, kv.get(KeyCodec.encode(SysKey.HEAD)), HeadValue.class);
      WriteBatch batch =
          new WriteBatch()
              .put(
                  KeyCodec.encode(one),
                  ValueCodec.encode(one, first.toBuilder().setSnapshotId(1).build()))
              .put(
                  KeyCodec.encode(SysKey.HEAD),
                  ValueCodec.encode(
                      SysKey.HEAD,
                      head.toBuilder()
                          .setSnapshotId(1)
                          .setBatchSeq(head.getBatchSeq() + 1)
                          .build()))
              .delete(KeyCodec.encode(zero));
      var receipt = kv.write(batch);
      kv.flushWal();
      kv.awaitDurable(receipt);
    }
  }
}
