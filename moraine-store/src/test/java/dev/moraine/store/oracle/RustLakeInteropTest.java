package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lake written by the Rust {@code moraine} 0.7.0 crate (through {@code moraine-oracle write})
 * reads back in Java exactly as the crate reads it: the two {@code moraine-dump-v1} documents
 * (docs/dump-format.md) are the same tree, for the whole snapshot range and for single snapshots,
 * whether Java opens the lake read-only or as a writer. And a lake Java creates is one the crate
 * accepts and reads as Java does.
 */
class RustLakeInteropTest {
  @TempDir static Path temp;

  private static Path rustLake;
  private static String rustDump;

  @BeforeAll
  static void writeTheRustLake() throws Exception {
    rustLake = temp.resolve("rust-lake");
    OracleTool.succeed("write", rustLake.toString());
    rustDump = OracleTool.succeed("dump", rustLake.toString());
  }

  /** The layout of docs/dump-format.md §11: the database at the root of the directory. */
  private static SlateStoreProvider provider(Path lake) {
    return new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
  }

  private static String javaDumpReadOnly(Path lake, Long at) {
    try (KvReader reader = provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      return at == null ? CatalogDump.allToString(catalog) : CatalogDump.atToString(catalog, at);
    }
  }

  /** Every key and value of the store, hex-encoded, read through a reader that writes nothing. */
  private static SortedMap<String, String> contents(Path lake) {
    HexFormat hex = HexFormat.of();
    SortedMap<String, String> all = new TreeMap<>();
    try (KvReader reader = provider(lake).openReader(ReaderMode.followLatest());
        KvIterator it = reader.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        all.put(hex.formatHex(kv.key()), hex.formatHex(kv.value()));
      }
    }
    return all;
  }

  @Test
  void theRustWorkloadIsNotTrivial() throws Exception {
    JsonNode dump = JsonTrees.parse(rustDump);
    long head = dump.get("head").asLong();
    assertTrue(head >= 10, () -> "head " + head);
    assertEquals(head + 1, dump.get("snapshots").size(), "no snapshot of the workload expired");
    boolean sawInlinedRows = false;
    boolean sawDataFiles = false;
    for (JsonNode snapshot : dump.get("snapshots")) {
      for (JsonNode table : snapshot.get("tables")) {
        sawInlinedRows |= table.get("inlined_rows").size() > 0;
        sawDataFiles |= table.get("data_files").size() > 0;
      }
    }
    assertTrue(sawInlinedRows && sawDataFiles, "the workload has inlined rows and data files");
  }

  @Test
  void readOnly_everySnapshot_isTheCratesTree() throws Exception {
    String java = javaDumpReadOnly(rustLake, null);
    JsonTrees.assertSameTree("moraine-oracle dump", rustDump, "CatalogDump", java);
  }

  @Test
  void asAWriter_everySnapshot_isTheCratesTree_andTheOpenWritesNoKey() throws Exception {
    SortedMap<String, String> before = contents(rustLake);
    String java;
    try (KvStore store = provider(rustLake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertFalse(catalog.createdByThisOpen());
      java = CatalogDump.allToString(catalog);
    }
    JsonTrees.assertSameTree("moraine-oracle dump", rustDump, "CatalogDump (writer)", java);
    assertEquals(before, contents(rustLake), "opening the lake as a writer changed a key");
  }

  @Test
  void atOneSnapshot_isTheCratesTree() throws Exception {
    long head = JsonTrees.parse(rustDump).get("head").asLong();
    for (long id : List.of(0L, 1L, head / 2, head - 1, head)) {
      String rust = OracleTool.succeed("dump", rustLake.toString(), "--at", Long.toString(id));
      String java = javaDumpReadOnly(rustLake, id);
      JsonTrees.assertSameTree("moraine-oracle dump --at " + id, rust, "CatalogDump", java);
      assertEquals(1, JsonTrees.parse(java).get("snapshots").size());
    }
  }

  @Test
  void aboveTheHead_bothSidesRefuse() throws Exception {
    long head = JsonTrees.parse(rustDump).get("head").asLong();
    String above = Long.toString(head + 1);
    OracleTool.Result rust = OracleTool.run("dump", rustLake.toString(), "--at", above);
    assertEquals(1, rust.status(), rust.stderr());
    assertEquals("", rust.stdout());
    NotFoundException refused =
        assertThrows(NotFoundException.class, () -> javaDumpReadOnly(rustLake, head + 1));
    assertEquals(ErrorCode.NOT_FOUND, refused.code());
  }

  @Test
  void aLakeJavaCreates_isAcceptedByTheCrate_andReadTheSame() throws Exception {
    Path lake = temp.resolve("java-lake");
    try (KvStore store = provider(lake).openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withDataPath("s3://bucket/lake/"))) {
      assertTrue(catalog.createdByThisOpen());
    }
    String rust = OracleTool.succeed("check", lake.toString());
    String java = javaDumpReadOnly(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode options = JsonTrees.parse(java).get("options");
    assertTrue(options.toString().contains("\"key\":\"data_path\""), () -> "options: " + options);
  }

  @Test
  void anExpiredSnapshot_isLeftOutAndRefused_onBothSides() throws Exception {
    Path lake = temp.resolve("expired-lake");
    try (KvStore store = provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertTrue(catalog.createdByThisOpen());
    }
    expireSnapshotZeroBehindSnapshotOne(lake);
    String rust = OracleTool.succeed("check", lake.toString());
    String java = javaDumpReadOnly(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode snapshots = JsonTrees.parse(java).get("snapshots");
    assertEquals(1, snapshots.size());
    assertEquals(1, snapshots.get(0).get("record").get("snapshot_id").asLong());

    OracleTool.Result refused = OracleTool.run("dump", lake.toString(), "--at", "0");
    assertEquals(1, refused.status(), refused.stderr());
    NotFoundException expired =
        assertThrows(NotFoundException.class, () -> javaDumpReadOnly(lake, 0L));
    assertEquals(ErrorCode.SNAPSHOT_EXPIRED, expired.code());
  }

  /**
   * The records an expiry of snapshot 0 leaves when snapshot 1 is the head: snapshot 1's record (a
   * copy of snapshot 0's, as a commit that changed nothing), the head moved to it, and snapshot 0's
   * record deleted. Written raw, in one batch, since commits are not part of this module yet.
   */
  private static void expireSnapshotZeroBehindSnapshotOne(Path lake) {
    try (KvStore kv = provider(lake).openWriter()) {
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
      kv.awaitDurable(kv.write(batch));
    }
  }
}
