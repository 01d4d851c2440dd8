package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Rust oracle from Java: it writes a lake through the crate, dumps it, and our binding opens
 * that lake at the object-store root (RFC 0002 §18). The Java dump compared with the oracle's comes
 * with the catalog read model.
 */
class RustOracleTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The sys/format and sys/head keys (RFC 0002 §4.1), which every lake has. */
  private static final byte[] FORMAT_KEY = {2, 2};

  private static final byte[] HEAD_KEY = {2, 3};

  @TempDir Path temp;

  @Test
  void theWorkloadDumpsEverySnapshotFromZeroToHead() throws Exception {
    RustOracle oracle = RustOracle.locate();
    Path lake = temp.resolve("lake");
    oracle.write(lake);

    JsonNode dump = JSON.readTree(oracle.dump(lake));
    assertEquals("moraine-dump-v1", dump.get("format").asText());
    long head = dump.get("head").asLong();
    assertTrue(head >= 30, () -> "head " + head);
    JsonNode snapshots = dump.get("snapshots");
    assertEquals(head + 1, snapshots.size());
    for (int id = 0; id < snapshots.size(); id++) {
      assertEquals(id, snapshots.get(id).get("record").get("snapshot_id").asLong());
    }

    JsonNode one = JSON.readTree(oracle.dumpAt(lake, 3));
    assertEquals(1, one.get("snapshots").size());
    assertEquals(snapshots.get(3), one.get("snapshots").get(0));
  }

  @Test
  void ourBindingOpensTheCratesLakeAtTheStoreRoot() throws Exception {
    RustOracle oracle = RustOracle.locate();
    Path lake = temp.resolve("lake");
    oracle.write(lake);
    long head = JSON.readTree(oracle.dump(lake)).get("head").asLong();

    byte[] headValue;
    StoreConfig root = StoreConfig.of(ObjectStoreSpec.localDirectory(lake), "");
    try (KvReader reader = new SlateStoreProvider(root).openReader(ReaderMode.followLatest())) {
      assertNotNull(reader.get(FORMAT_KEY), "the format stamp is found at the root");
      headValue = reader.get(HEAD_KEY);
      assertNotNull(headValue, "the head is found at the root");
    }
    // "/" is the same database: the writer sees the same head record.
    StoreConfig slash = StoreConfig.of(ObjectStoreSpec.localDirectory(lake), "/");
    try (KvStore writer = new SlateStoreProvider(slash).openWriter()) {
      assertArrayEquals(headValue, writer.get(HEAD_KEY));
    }
    assertTrue(Files.isDirectory(lake.resolve("manifest")));
    assertFalse(Files.exists(lake.resolve("manifest").resolve("manifest")));

    // After our writer's open and close (a manifest update, no catalog key) the crate still reads
    // the lake, at the same head.
    assertEquals(head, JSON.readTree(oracle.check(lake)).get("head").asLong());
  }

  @Test
  void theCrateRefusesAStoreWithoutACatalogInOneLine() {
    RustOracle oracle = RustOracle.locate();
    Path dir = temp.resolve("bare");
    StoreConfig root = StoreConfig.of(ObjectStoreSpec.localDirectory(dir), "");
    try (KvStore writer = new SlateStoreProvider(root).openWriter()) {
      writer.write(new dev.moraine.core.kv.WriteBatch().put(new byte[] {9, 9}, new byte[] {1}));
      writer.flushWal();
    }
    assertTrue(Files.isDirectory(dir.resolve("manifest")), "our store keeps manifest/ at the root");

    RustOracle.Failure failure = assertThrows(RustOracle.Failure.class, () -> oracle.check(dir));
    assertEquals(1, failure.exitStatus());
    assertFalse(failure.stderr().contains("\n"), failure.stderr());
    assertTrue(failure.stderr().contains("refuses"), failure.stderr());
  }

  @Test
  void aPathThatIsNoLakeIsOneLineAndStatusOne() {
    RustOracle oracle = RustOracle.locate();
    Path missing = temp.resolve("missing");
    RustOracle.Failure failure = assertThrows(RustOracle.Failure.class, () -> oracle.dump(missing));
    assertEquals(1, failure.exitStatus());
    assertFalse(failure.stderr().isEmpty());
    assertFalse(failure.stderr().contains("\n"), failure.stderr());
    assertFalse(Files.exists(missing), "dump created the directory");
  }
}
