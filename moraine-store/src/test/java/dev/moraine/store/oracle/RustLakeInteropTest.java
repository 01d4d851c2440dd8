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
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.NameMapping;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TagEntry;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
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
  /** Located once: a missing binary fails every test of the class (RustOracle.locate). */
  private static RustOracle oracle;

  @TempDir static Path temp;

  private static Path rustLake;
  private static String rustDump;

  @BeforeAll
  static void writeTheRustLake() throws Exception {
    oracle = RustOracle.locate();
    rustLake = temp.resolve("rust-lake");
    oracle.write(rustLake);
    rustDump = oracle.dump(rustLake);
  }

  @Test
  void theRustWorkloadIsNotTrivial() throws Exception {
    JsonNode dump = JsonTrees.parse(rustDump);
    long head = dump.get("head").asLong();
    assertTrue(head >= 10, () -> "head " + head);
    assertTrue(dump.get("snapshots").size() >= 10, "the workload leaves at least ten snapshots");
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
    String java = Lakes.javaDump(rustLake, null);
    JsonTrees.assertSameTree("moraine-oracle dump", rustDump, "CatalogDump", java);
  }

  @Test
  void asAWriter_everySnapshot_isTheCratesTree_andTheOpenWritesNoKey() throws Exception {
    SortedMap<String, String> before = Lakes.contents(rustLake);
    String java;
    try (KvStore store = Lakes.provider(rustLake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertFalse(catalog.createdByThisOpen());
      java = CatalogDump.allToString(catalog);
    }
    JsonTrees.assertSameTree("moraine-oracle dump", rustDump, "CatalogDump (writer)", java);
    assertEquals(before, Lakes.contents(rustLake), "opening the lake as a writer changed a key");
  }

  @Test
  void atOneSnapshot_isTheCratesTree() throws Exception {
    long head = JsonTrees.parse(rustDump).get("head").asLong();
    for (long id : List.of(0L, 1L, head / 2, head - 1, head)) {
      String rust = oracle.dumpAt(rustLake, id);
      String java = Lakes.javaDump(rustLake, id);
      JsonTrees.assertSameTree("moraine-oracle dump --at " + id, rust, "CatalogDump", java);
      assertEquals(1, JsonTrees.parse(java).get("snapshots").size());
    }
  }

  @Test
  void aboveTheHead_bothSidesRefuse() throws Exception {
    long head = JsonTrees.parse(rustDump).get("head").asLong();
    RustOracle.Failure rust =
        assertThrows(RustOracle.Failure.class, () -> oracle.dumpAt(rustLake, head + 1));
    assertEquals(1, rust.exitStatus(), rust.stderr());
    NotFoundException refused =
        assertThrows(NotFoundException.class, () -> Lakes.javaDump(rustLake, head + 1));
    assertEquals(ErrorCode.NOT_FOUND, refused.code());
  }

  @Test
  void aLakeJavaCreates_isAcceptedByTheCrate_andReadTheSame() throws Exception {
    Path lake = temp.resolve("java-lake");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withDataPath("s3://bucket/lake/"))) {
      assertTrue(catalog.createdByThisOpen());
    }
    String rust = oracle.check(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode options = JsonTrees.parse(java).get("options");
    assertTrue(options.toString().contains("\"key\":\"data_path\""), () -> "options: " + options);
  }

  @Test
  void anExpiredSnapshot_isLeftOutAndRefused_onBothSides() throws Exception {
    Path lake = temp.resolve("expired-lake");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertTrue(catalog.createdByThisOpen());
    }
    expireSnapshotZeroBehindSnapshotOne(lake);
    String rust = oracle.check(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode snapshots = JsonTrees.parse(java).get("snapshots");
    assertEquals(1, snapshots.size());
    assertEquals(1, snapshots.get(0).get("record").get("snapshot_id").asLong());

    RustOracle.Failure refused =
        assertThrows(RustOracle.Failure.class, () -> oracle.dumpAt(lake, 0));
    assertEquals(1, refused.exitStatus(), refused.stderr());
    NotFoundException expired =
        assertThrows(NotFoundException.class, () -> Lakes.javaDump(lake, 0L));
    assertEquals(ErrorCode.SNAPSHOT_EXPIRED, expired.code());
  }

  /**
   * The records an expiry of snapshot 0 leaves when snapshot 1 is the head: snapshot 1's record (a
   * copy of snapshot 0's, as a commit that changed nothing), the head moved to it, and snapshot 0's
   * record deleted. Written raw, in one batch, since commits are not part of this module yet.
   */
  private static void expireSnapshotZeroBehindSnapshotOne(Path lake) {
    try (KvStore kv = Lakes.provider(lake).openWriter()) {
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
      WriteReceipt receipt = kv.write(batch);
      kv.flushWal();
      kv.awaitDurable(receipt);
    }
  }

  /**
   * Records the crate's verb API does not write in the workload, added raw to a copy of the Rust
   * lake, read the same by both sides: a column mapping with and without a parent column, files
   * scheduled for deletion (one with a non-ASCII path), and tag entries whose keys sort differently
   * by UTF-8 bytes than by UTF-16 units, with a repeated key and an ended entry.
   */
  @Test
  void rawRecordsOfOtherKinds_areReadTheSameByBothSides() throws Exception {
    Path lake = temp.resolve("rust-lake-plus");
    Lakes.copyTree(rustLake, lake);
    JsonNode lastSnapshot = Lakes.lastOf(JsonTrees.parse(rustDump).get("snapshots"));
    long head = lastSnapshot.get("record").get("snapshot_id").asLong();
    long tableId = lastSnapshot.get("tables").get(0).get("id").asLong();
    long columnId = lastSnapshot.get("tables").get(0).get("columns").get(0).get("id").asLong();
    try (KvStore kv = Lakes.provider(lake).openWriter()) {
      EntityKey.Tag tagKey = new EntityKey.Tag(tableId);
      byte[] tagBytes = KeyCodec.encode(CurrentKey.of(tagKey));
      byte[] existing = kv.get(tagBytes);
      TagValue.Builder tags =
          existing == null
              ? TagValue.newBuilder().setObjectId(tableId)
              : ValueCodec.decode(CurrentKey.of(tagKey), existing, TagValue.class).toBuilder();
      tags.addEntries(tag("\uD83D\uDE00 grin", 1, null))
          .addEntries(tag("\uFF21 wide", 1, null))
          .addEntries(tag("alpha", head, null))
          .addEntries(tag("alpha", 1, null))
          .addEntries(tag("ended", 1, head - 1));
      EntityKey.Mapping mapping = new EntityKey.Mapping(tableId, 900);
      MappingValue mappingValue =
          MappingValue.newBuilder()
              .setMappingId(900)
              .setTableId(tableId)
              .setMapType("map_by_name")
              .addNameMappings(
                  NameMapping.newBuilder()
                      .setColumnId(columnId)
                      .setSourceName("src")
                      .setTargetFieldId(1)
                      .setIsPartition(true))
              .addNameMappings(
                  NameMapping.newBuilder()
                      .setColumnId(columnId + 1)
                      .setSourceName("nested")
                      .setTargetFieldId(2)
                      .setParentColumn(columnId))
              .build();
      CurrentKey.ScheduledDeletion gcA = new CurrentKey.ScheduledDeletion(70);
      CurrentKey.ScheduledDeletion gcB = new CurrentKey.ScheduledDeletion(7);
      WriteBatch batch =
          new WriteBatch()
              .put(tagBytes, ValueCodec.encode(CurrentKey.of(tagKey), tags.build()))
              .put(
                  KeyCodec.encode(CurrentKey.of(mapping)),
                  ValueCodec.encode(CurrentKey.of(mapping), mappingValue))
              .put(KeyCodec.encode(gcA), ValueCodec.encode(gcA, gc(70, "data/z\u00e9.parquet")))
              .put(KeyCodec.encode(gcB), ValueCodec.encode(gcB, gc(7, "s3://b/a.parquet")));
      WriteReceipt receipt = kv.write(batch);
      kv.flushWal();
      kv.awaitDurable(receipt);
    }
    String rust = oracle.dump(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle dump", rust, "CatalogDump", java);
    JsonNode dump = JsonTrees.parse(java);
    assertEquals(2, dump.get("scheduled_deletions").size());
    JsonNode table = Lakes.lastOf(dump.get("snapshots")).get("tables").get(0);
    assertEquals(1, table.get("mappings").size());
    assertTrue(table.get("tags").toString().contains("\uFF21 wide"), table.get("tags").toString());
  }

  private static TagEntry tag(String key, long begin, Long end) {
    TagEntry.Builder entry =
        TagEntry.newBuilder().setKey(key).setValue("v-" + key).setBeginSnapshot(begin);
    if (end != null) {
      entry.setEndSnapshot(end);
    }
    return entry.build();
  }

  private static GcFileValue gc(long dataFileId, String path) {
    return GcFileValue.newBuilder()
        .setDataFileId(dataFileId)
        .setPath(path)
        .setPathIsRelative(!path.startsWith("s3:"))
        .setScheduleStartMicros(1_700_000_000_000_000L + dataFileId)
        .build();
  }
}
