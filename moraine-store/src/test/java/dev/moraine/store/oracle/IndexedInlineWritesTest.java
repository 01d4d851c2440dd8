package dev.moraine.store.oracle;

import static dev.moraine.store.oracle.IndexedLakes.clients;
import static dev.moraine.store.oracle.IndexedLakes.index;
import static dev.moraine.store.oracle.IndexedLakes.longs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.DuplicateIndexValueException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.value.IndexEntryValues;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inline verbs keep the entries of the ready equality indexes of a lake the Rust crate wrote
 * ({@code moraine-oracle write-indexed}: {@code sales.clients (id int64, name varchar, ok bool)}
 * with the UNIQUE index {@code by_id} and the index {@code by_name}; rows 0 to 4 in files, row 1
 * deleted, and rows 5 (id 4) and 6 (id 5, name NULL) inlined), as the crate keeps them: after a
 * Java writer inserts, deletes and updates inlined rows, the crate's own lookups (range, NULL and
 * equality; {@code moraine-oracle index-view}) find exactly the live rows, under their values. A
 * value the UNIQUE index already gives to another row is refused with {@link
 * DuplicateIndexValueException}, whether the holder is a row of the premise, of the same commit, of
 * an earlier commit of the same batch or of a commit that landed first; a refused commit writes no
 * key and leaves the crate's view as it was.
 */
class IndexedInlineWritesTest {
  private static final List<String> PROBES =
      List.of("3", "4", "5", "8", "9", "10", "Ada", "Cy", "Dee", "Flo", "Gus", "Ivy");

  private static RustOracle oracle;

  @TempDir static Path temp;

  private static Path lake;
  private static JsonNode viewBefore;

  @BeforeAll
  static void writeTheIndexedLake() throws Exception {
    oracle = RustOracle.locate();
    lake = temp.resolve("indexed");
    oracle.run("write-indexed", lake.toString());
    viewBefore = view(lake);
  }

  private static JsonNode view(Path dir) throws IOException {
    return IndexedLakes.indexView(oracle, dir, PROBES);
  }

  private static Path copy(String name) throws IOException {
    Path dir = temp.resolve(name);
    Lakes.copyTree(lake, dir);
    return dir;
  }

  /** The rows {@code index} of {@code sales.clients} gives for {@code probe} in {@code view}. */
  private static List<Long> lookup(JsonNode view, String index, String probe) {
    return longs(index(view, "clients", index).at("/entries/lookups/" + probe));
  }

  private static List<Long> ordered(JsonNode view, String index) {
    return longs(index(view, "clients", index).at("/entries/ordered"));
  }

  private static List<Long> nulls(JsonNode view, String index) {
    return longs(index(view, "clients", index).at("/entries/null"));
  }

  /** Runs {@code bodies} as consecutive commits on the lake at {@code dir}. */
  private static void commit(Path dir, CommitBody... bodies) throws IOException {
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      for (CommitBody body : bodies) {
        catalog.commit(body);
      }
    }
  }

  /** The crate reads the lake as Java does, and Java's index lookups give the crate's rows. */
  private static void sameAsTheCrate(Path dir) throws IOException {
    JsonTrees.assertSameTree(
        "moraine-oracle check", oracle.check(dir), "CatalogDump", Lakes.javaDump(dir, null));
    IndexedLakes.javaLookupsAgree(dir, view(dir));
  }

  // ---- additions -------------------------------------------------------------------------------

  @Test
  void insertedRows_areFoundByTheCratesLookups() throws Exception {
    Path dir = copy("insert");
    commit(
        dir,
        tx ->
            tx.insertInlined(
                clients(tx), List.of(List.of(8L, "Flo", true), Arrays.asList(9L, null, false))));
    JsonNode after = view(dir);
    assertEquals(List.of(0L, 2L, 5L, 6L, 3L, 4L, 7L, 8L), ordered(after, "by_id"));
    assertEquals(List.of(7L), lookup(after, "by_id", "8"));
    assertEquals(List.of(8L), lookup(after, "by_id", "9"));
    assertEquals(List.of(7L), lookup(after, "by_name", "Flo"));
    assertEquals(List.of(6L, 8L), nulls(after, "by_name"));
    assertEquals(lookup(viewBefore, "by_name", "Ada"), lookup(after, "by_name", "Ada"));
    sameAsTheCrate(dir);
  }

  // ---- refusals --------------------------------------------------------------------------------

  /**
   * Runs {@code body} on a copy of the lake and checks it is refused as a duplicate of {@code
   * values} in {@code by_id}, with nothing written and the crate's view unchanged.
   */
  private static DuplicateIndexValueException refused(String name, CommitBody... bodies)
      throws IOException {
    Path dir = copy(name);
    SortedMap<String, String> before = Lakes.contents(dir);
    DuplicateIndexValueException e;
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      Head head = catalog.head();
      e =
          assertThrows(
              DuplicateIndexValueException.class,
              () -> {
                if (bodies.length == 1) {
                  catalog.commit(bodies[0]);
                } else {
                  catalog.commitGroup(List.of(bodies));
                }
              });
      assertEquals(head, catalog.head(), "the refused commit moved the head");
    }
    assertEquals(ErrorCode.DUPLICATE_INDEX_VALUE, e.code());
    assertEquals("sales", e.schemaName());
    assertEquals("clients", e.tableName());
    assertEquals("by_id", e.indexName());
    assertTrue(e.getMessage().contains("sales.clients"), e.getMessage());
    assertTrue(e.getMessage().contains("by_id"), e.getMessage());
    String lower = e.getMessage().toLowerCase(Locale.ROOT);
    for (String retryable : List.of("primary key", "unique", "conflict", "concurrent")) {
      assertFalse(lower.contains(retryable), e.getMessage());
    }
    assertEquals(before, Lakes.contents(dir), "the refused commit changed a key");
    assertEquals(viewBefore, view(dir), "the crate's index view changed");
    return e;
  }

  @Test
  void aValueALiveRowHolds_isRefused() throws Exception {
    DuplicateIndexValueException e =
        refused("held", tx -> tx.insertInlined(clients(tx), List.of(List.of(3L, "Ada", false))));
    assertEquals(List.of(3L), e.values());
    assertEquals(7, e.rowId());
    assertEquals(2, e.holderRowId());
    assertFalse(e.holderInThisCommit());
    assertTrue(e.getMessage().contains("(3)"), e.getMessage());
  }

  @Test
  void aValueAnInlinedRowHolds_isRefused_alsoAfterOtherRowsOfTheCommit() throws Exception {
    DuplicateIndexValueException e =
        refused(
            "held-inline",
            tx -> {
              tx.insertInlined(clients(tx), List.of(List.of(8L, "Flo", true)));
              tx.insertInlined(clients(tx), List.of(List.of(5L, "Eve", true)));
            });
    assertEquals(List.of(5L), e.values());
    assertEquals(8, e.rowId());
    assertEquals(6, e.holderRowId());
  }

  @Test
  void twoRowsOfOneCommit_claimingOneValue_areRefused() throws Exception {
    DuplicateIndexValueException e =
        refused(
            "same-commit",
            tx -> {
              tx.insertInlined(clients(tx), List.of(List.of(8L, "Flo", true)));
              tx.insertInlined(clients(tx), List.of(List.of(8L, "Gus", true)));
            });
    assertEquals(8, e.rowId());
    assertEquals(7, e.holderRowId());
    assertTrue(e.holderInThisCommit());
  }

  @Test
  void aLaterCommitOfOneBatch_seesTheValueAnEarlierOneClaimed() throws Exception {
    DuplicateIndexValueException e =
        refused(
            "same-batch",
            tx -> tx.insertInlined(clients(tx), List.of(List.of(8L, "Flo", true))),
            tx -> tx.insertInlined(clients(tx), List.of(List.of(8L, "Gus", true))));
    assertEquals(8, e.rowId());
    assertEquals(7, e.holderRowId());
    assertFalse(e.holderInThisCommit(), "the holder is the second commit's premise");
  }

  @Test
  void anUpdateToAValueAnotherRowHolds_isRefused() throws Exception {
    DuplicateIndexValueException e =
        refused("update-held", tx -> tx.updateRowInline(clients(tx), 6, List.of(4L, "Eve", true)));
    assertEquals(6, e.rowId());
    assertEquals(5, e.holderRowId());
  }

  @Test
  void concurrentCommitsClaimingOneValue_landOnce() throws Exception {
    Path dir = copy("concurrent");
    int writers = 6;
    List<Object> outcomes = new ArrayList<>();
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      try {
        CyclicBarrier start = new CyclicBarrier(writers);
        List<Future<Object>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          String name = "W" + w;
          futures.add(
              pool.submit(
                  () -> {
                    start.await();
                    try {
                      return catalog.commit(
                          tx -> tx.insertInlined(clients(tx), List.of(List.of(10L, name, true))));
                    } catch (DuplicateIndexValueException e) {
                      return e;
                    }
                  }));
        }
        for (Future<Object> f : futures) {
          outcomes.add(f.get());
        }
      } finally {
        pool.shutdownNow();
      }
    }
    List<Long> landed = new ArrayList<>();
    List<DuplicateIndexValueException> refusals = new ArrayList<>();
    for (Object o : outcomes) {
      if (o instanceof DuplicateIndexValueException e) {
        refusals.add(e);
      } else {
        landed.add((Long) o);
      }
    }
    assertEquals(1, landed.size(), "exactly one commit takes the value: " + outcomes);
    JsonNode after = view(dir);
    List<Long> holder = lookup(after, "by_id", "10");
    assertEquals(1, holder.size(), after.toString());
    for (DuplicateIndexValueException e : refusals) {
      assertEquals(holder.get(0), e.holderRowId());
      assertEquals(List.of(10L), e.values());
    }
    assertEquals(ordered(viewBefore, "by_id").size() + 1, ordered(after, "by_id").size());
    sameAsTheCrate(dir);
  }

  // ---- removals --------------------------------------------------------------------------------

  @Test
  void aDeletedRowGivesItsValueUp_toARowOfTheSameCommit() throws Exception {
    Path dir = copy("delete-then-insert");
    // The insert comes first in the closure; removals are resolved first, as in the crate.
    commit(
        dir,
        tx -> {
          tx.insertInlined(clients(tx), List.of(List.of(4L, "Dee", true)));
          tx.deleteRowInline(clients(tx), 5);
        });
    JsonNode after = view(dir);
    assertEquals(List.of(7L), lookup(after, "by_id", "4"));
    assertFalse(ordered(after, "by_id").contains(5L));
    assertFalse(ordered(after, "by_name").contains(5L));
    assertEquals(List.of(7L), lookup(after, "by_name", "Dee"));
    sameAsTheCrate(dir);
  }

  @Test
  void aDeletedRowsValue_canBeTakenLater() throws Exception {
    Path dir = copy("delete-later-insert");
    commit(
        dir,
        tx -> tx.deleteRowInline(clients(tx), 6),
        tx -> tx.insertInlined(clients(tx), List.of(List.of(5L, "Gus", true))));
    JsonNode after = view(dir);
    assertEquals(List.of(7L), lookup(after, "by_id", "5"));
    assertEquals(List.of(), nulls(after, "by_name"), "row 6 held the only NULL name");
    sameAsTheCrate(dir);
  }

  /**
   * A removal from the UNIQUE index takes the entry only when it names the removed row: the key is
   * the value alone. Here the entry of value 4 is made to name row 3 (as if row 3 held it), and
   * deleting row 5, whose chunk says 4, leaves it as it is; the non-unique index, whose keys name
   * their rows, loses row 5's entry.
   */
  @Test
  void aRemovalLeavesAUniqueEntryThatNamesAnotherRow() throws Exception {
    Path dir = copy("guarded-removal");
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long clientsId =
          catalog
              .snapshot()
              .tableByName(IndexedLakes.salesId(catalog), "clients")
              .orElseThrow()
              .tableId();
      IndexInfo byId = catalog.snapshot().indexByName(clientsId, "by_id").orElseThrow();
      byte[] key =
          KeyCodec.encode(
              IndexKeyEncoder.entryKey(
                  byId,
                  IndexKeyEncoder.canonical(byId, List.of(new IndexKeyValue.Signed(4, 8))),
                  5));
      assertEquals(5, holder(store, key), "the crate's entry");
      WriteReceipt receipt = store.write(new WriteBatch().put(key, IndexEntryValues.uniqueRow(3)));
      store.flushWal();
      store.awaitDurable(receipt);
      catalog.commit(tx -> tx.deleteRowInline(clients(tx), 5));
      assertEquals(3, holder(store, key));
    }
    JsonNode after = view(dir);
    assertEquals(List.of(3L), lookup(after, "by_id", "4"));
    assertFalse(ordered(after, "by_name").contains(5L));
  }

  /** The row the unique entry under {@code key} names. */
  private static long holder(KvStore store, byte[] key) {
    try (KvSnapshot snapshot = store.snapshot()) {
      return IndexEntryValues.decodeUniqueRow(
          (IndexEntryKey.Unique) KeyCodec.decode(key), snapshot.get(key));
    }
  }

  @Test
  void updates_moveTheEntries() throws Exception {
    Path dir = copy("update");
    commit(
        dir,
        tx -> tx.updateRowInline(clients(tx), 6, List.of(9L, "Gus", true)),
        tx -> tx.updateRowInline(clients(tx), 5, List.of(4L, "Ivy", false)));
    JsonNode after = view(dir);
    assertEquals(List.of(), lookup(after, "by_id", "5"));
    assertEquals(List.of(6L), lookup(after, "by_id", "9"));
    assertEquals(List.of(5L), lookup(after, "by_id", "4"), "an update keeping the value keeps it");
    assertEquals(List.of(), nulls(after, "by_name"));
    assertEquals(List.of(6L), lookup(after, "by_name", "Gus"));
    assertEquals(List.of(5L), lookup(after, "by_name", "Ivy"));
    assertEquals(ordered(viewBefore, "by_id").size(), ordered(after, "by_id").size());
    sameAsTheCrate(dir);
  }

  @Test
  void twoRowsSwappingValuesInOneCommit_land() throws Exception {
    Path dir = copy("swap");
    commit(
        dir,
        tx -> {
          tx.updateRowInline(clients(tx), 5, List.of(5L, "Ivy", true));
          tx.updateRowInline(clients(tx), 6, List.of(4L, "Gus", true));
        });
    JsonNode after = view(dir);
    assertEquals(List.of(6L), lookup(after, "by_id", "4"));
    assertEquals(List.of(5L), lookup(after, "by_id", "5"));
    sameAsTheCrate(dir);
  }
}
