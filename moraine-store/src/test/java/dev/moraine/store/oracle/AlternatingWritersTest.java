package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FencedException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One lake written in turn by the Java catalog and by the Rust crate ({@code moraine-oracle
 * append}): Java, then Rust, then Java again. The history is one: both implementations dump the
 * same catalog at every snapshot id, snapshot ids run without a gap, the counters never go back,
 * file ids are never reused, and the row ids of the table both sides append to are dense. Each
 * opening fences the writer before it: a Java writer still open when the crate opens gets {@link
 * FencedException} on its next commit, and a crate writer ({@code moraine-oracle hold}) still open
 * when Java opens reports {@code fenced}.
 */
class AlternatingWritersTest {
  private static RustOracle oracle;

  @TempDir static Path temp;

  @BeforeAll
  static void locate() {
    oracle = RustOracle.locate();
  }

  /** A Java writer's store and catalog, closed together. */
  private record JavaWriter(KvStore store, Catalog catalog) implements AutoCloseable {
    /**
     * A writer polling the manifest every 100 ms: SlateDB learns that a newer writer opened at its
     * next poll, and from then on refuses every call with a fence.
     */
    static JavaWriter open(Path lake) {
      StoreSettings settings =
          StoreSettings.defaults().withManifestPollInterval(Duration.ofMillis(100));
      KvStore store =
          new SlateStoreProvider(
                  StoreConfig.of(ObjectStoreSpec.localDirectory(lake), "").withSettings(settings))
              .openWriter();
      try {
        return new JavaWriter(store, Catalog.open(store, CatalogOptions.defaults()));
      } catch (RuntimeException e) {
        store.close();
        throw e;
      }
    }

    /**
     * Waits (at most 30 s) until the store has learnt of a newer writer: a fenced handle refuses to
     * begin a transaction. A commit made before that moment is refused only when its log write
     * meets the newer writer's, as an unknown outcome (RFC 0004 §4.4); one made after it is refused
     * before it is submitted, as a fence.
     */
    void awaitFence() throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline) {
        try {
          store.begin().close();
        } catch (KvFencedException fenced) {
          return;
        }
        Thread.sleep(50);
      }
      throw new AssertionError("the writer was not fenced within 30 s");
    }

    /** Closes both; a fenced handle may refuse to close cleanly, which changes nothing stored. */
    @Override
    public void close() {
      try {
        catalog.close();
      } catch (FencedException ignored) {
        // Fenced: nothing of this handle can reach the store any more.
      } finally {
        try {
          store.close();
        } catch (RuntimeException ignored) {
          // The same: a fenced store's close has nothing left to write.
        }
      }
    }
  }

  private static NewDataFile file(String path, long rows) {
    return NewDataFile.parquet(path, rows, 100 * rows, 64);
  }

  @Test
  void javaRustJava_writeOneHistory_andEachOpeningFencesTheOther() throws Exception {
    Path lake = temp.resolve("alternating");
    // Java: the shared table (1), a file in it (rows 0..9), a schema. Head 3.
    JavaWriter first = JavaWriter.open(lake);
    try {
      first
          .catalog()
          .commit(tx -> tx.createTable(0, "shared", List.of(ColumnDef.of("v", "int64"))));
      first.catalog().commit(tx -> tx.registerDataFile(1, file("java-1.parquet", 10)));
      assertEquals(3, first.catalog().commit(tx -> tx.createSchema("java_one")));

      // Rust takes the lake over while the Java writer is still open: four commits.
      assertArrayEquals(new long[] {3, 7}, oracle.append(lake));
      first.awaitFence();

      FencedException fenced =
          assertThrows(
              FencedException.class,
              () -> first.catalog().commit(tx -> tx.createSchema("too_late")));
      assertEquals(ErrorCode.FENCED, fenced.code());
      assertTrue(fenced.getMessage().contains("newer writer"), fenced.getMessage());
    } finally {
      first.close();
    }

    // Java again: it continues from the crate's head.
    try (JavaWriter second = JavaWriter.open(lake)) {
      assertEquals(7, second.catalog().head().snapshotId());
      second.catalog().commit(tx -> tx.registerDataFile(1, file("java-2.parquet", 5)));
      assertEquals(
          9,
          second
              .catalog()
              .commit(tx -> tx.createTable(0, "from_java", List.of(ColumnDef.of("x", "int32")))));

      // A crate writer opens while this one is open: this one is fenced.
      try (RustOracle.Held held = oracle.hold(lake)) {
        second.awaitFence();
        assertThrows(
            FencedException.class, () -> second.catalog().commit(tx -> tx.createSchema("late")));
        // And a Java writer opened after the crate's fences the crate's.
        try (JavaWriter third = JavaWriter.open(lake)) {
          assertEquals("fenced", held.commit());
          assertEquals(10, third.catalog().commit(tx -> tx.createSchema("java_three")));
          assertEquals(
              11, third.catalog().commit(tx -> tx.registerDataFile(1, file("java-3.parquet", 2))));
          List<DataFileInfo> shared = third.catalog().snapshot().dataFiles(1);
          assertDenseRows(shared);
        }
      }
    }

    assertOneHistory(lake, 11);
  }

  /** The table's files cover its row ids from 0 without a gap or an overlap. */
  private static void assertDenseRows(List<DataFileInfo> files) {
    List<DataFileInfo> sorted = new ArrayList<>(files);
    sorted.sort((a, b) -> Long.compare(a.rowIdStart().orElseThrow(), b.rowIdStart().orElseThrow()));
    long next = 0;
    for (DataFileInfo f : sorted) {
      assertEquals(next, f.rowIdStart().orElseThrow(), "row ids of file " + f.path());
      next += f.recordCount();
    }
    assertEquals(4, sorted.size(), "Java 10 rows, Rust 7, Java 5 and 2");
    assertEquals(24, next);
  }

  /**
   * Both dumps agree, whole and at every snapshot; ids run from 0 to the head without a gap;
   * next_catalog_id and next_file_id never go back; no data file id is used twice.
   */
  private static void assertOneHistory(Path lake, long head) throws Exception {
    String rust = oracle.check(lake);
    JsonTrees.assertSameTree(
        "moraine-oracle check", rust, "CatalogDump", Lakes.javaDump(lake, null));
    JsonNode dump = JsonTrees.parse(rust);
    assertEquals(head, dump.get("head").asLong());
    JsonNode snapshots = dump.get("snapshots");
    assertEquals(head + 1, snapshots.size());
    long catalogId = 0;
    long fileId = 0;
    Set<Long> fileIds = new HashSet<>();
    for (int i = 0; i < snapshots.size(); i++) {
      JsonNode record = snapshots.get(i).get("record");
      assertEquals(i, record.get("snapshot_id").asLong(), "snapshot ids run without a gap");
      long nextCatalog = record.get("next_catalog_id").asLong();
      long nextFile = record.get("next_file_id").asLong();
      assertTrue(nextCatalog >= catalogId, "next_catalog_id went back at " + i);
      assertTrue(nextFile >= fileId, "next_file_id went back at " + i);
      catalogId = nextCatalog;
      fileId = nextFile;
      for (JsonNode table : snapshots.get(i).get("tables")) {
        for (JsonNode f : table.get("data_files")) {
          long id = f.get("id").asLong();
          assertTrue(id < nextFile, "file " + id + " at or above next_file_id at " + i);
          fileIds.add(id);
        }
      }
      JsonTrees.assertSameTree(
          "moraine-oracle dump --at " + i,
          oracle.dumpAt(lake, i),
          "CatalogDump at " + i,
          Lakes.javaDump(lake, (long) i));
    }
    // Java 1 file before the crate, the crate 2, Java 2 after: five distinct ids.
    assertEquals(5, fileIds.size());
  }
}
