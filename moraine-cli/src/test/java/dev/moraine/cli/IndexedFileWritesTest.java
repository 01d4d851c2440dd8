package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.DuplicateIndexValueException;
import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.LocalFileIndexValues;
import dev.moraine.parquet.ParquetInlineFlush;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file verbs keep the equality indexes of a table whose rows are in Parquet files, reading the
 * indexed columns through {@link LocalFileIndexValues}: a Java writer lays out {@code sales.clients
 * (id int64, name varchar, ok boolean)} with two inlined rows and a file of two rows, the Rust
 * crate creates a UNIQUE index {@code by_id} and an index {@code by_name} over them, backfilled
 * from the rows it reads ({@code moraine-oracle create-index}), and the Java writer goes on:
 * registering files, deleting and updating file rows inline, registering a delete file. After each,
 * the entries stored under both indexes are, byte for byte, the ones the crate derives from the
 * table's live rows and files ({@code index-expect}, {@code index-expect-files}), and the crate's
 * own lookups find the rows; a file whose value the UNIQUE index gives another row is refused with
 * nothing written, and without a {@code FileIndexValues} the file verbs are refused.
 */
class IndexedFileWritesTest {
  @TempDir Path dir;

  /** The lake under test: the one the crate indexed, unless a test switches to {@link #bare}. */
  private Path lake;

  /** A copy of the lake as the Java writer laid it out, before the crate indexed it. */
  private Path bare;

  private Path data;
  private Path tableDir;
  private long clients;

  @BeforeEach
  void layOutTheTableAndHaveTheCrateIndexIt() throws Exception {
    lake = dir.resolve("lake");
    data = dir.resolve("data");
    Files.createDirectories(data);
    try (KvStore store = provider().openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      long[] t = new long[1];
      catalog.commit(
          tx -> {
            t[0] =
                tx.createTable(
                    tx.createSchema("sales"),
                    "clients",
                    List.of(
                        ColumnDef.of("id", "int64"),
                        ColumnDef.of("name", "varchar"),
                        ColumnDef.of("ok", "boolean"),
                        ColumnDef.of("u", "uuid")));
            tx.insertInlined(
                t[0],
                List.of(
                    List.of(1L, "Ada", true, uuid(1)), Arrays.asList(2L, null, false, uuid(2))));
          });
      clients = t[0];
      tableDir =
          dev.moraine.parquet.LocalFileMerger.of(catalog, data)
              .tableDirectory(catalog.snapshot(), clients);
      Files.createDirectories(tableDir);
      NewDataFile first = file(catalog, "f1.parquet", row(3, "Cy"), row(4, "Ada"));
      catalog.commit(tx -> tx.registerDataFile(clients, first));
    }
    bare = dir.resolve("bare");
    LakeCopy.copy(lake, bare);
    for (String[] index :
        new String[][] {
          {"by_id", "unique", "id"}, {"by_name", "multi", "name"}, {"by_u", "multi", "u"}
        }) {
      CrateOracle.run(
          dir,
          "create-index",
          lake.toString(),
          data.toString(),
          "sales",
          "clients",
          index[0],
          index[1],
          index[2]);
    }
  }

  private SlateStoreProvider provider() {
    return new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
  }

  private Catalog open(KvStore store, boolean withFileValues) {
    CatalogOptions options = CatalogOptions.defaults();
    return Catalog.open(
        store,
        withFileValues ? options.withFileIndexValues(LocalFileIndexValues.of(data)) : options);
  }

  private static List<Object> nullValue() {
    return Arrays.asList((Object) null);
  }

  /** The {@code u} of the row whose id is {@code id}. */
  private static UUID uuid(long id) {
    return new UUID(0x1234_5678_0000_0000L | id, ~id);
  }

  private static Object[] row(long id, String name) {
    return ClientFiles.row(id, name);
  }

  private ClientFiles files() {
    return new ClientFiles(tableDir, IndexedFileWritesTest::uuid);
  }

  /** A Parquet file of {@code rows} in the table's directory, as a data file to register. */
  private NewDataFile file(Catalog catalog, String name, Object[]... rows) throws Exception {
    return files().dataFile(catalog.snapshot().columns(clients), name, rows);
  }

  /** A DuckLake delete file of {@code positions} of the data file {@code target}. */
  private NewDeleteFile deleteFile(DataFileInfo target, String name, long... positions)
      throws Exception {
    return files().deleteFile(target, name, positions);
  }

  private static DataFileInfo dataFile(Transaction tx, long table, String path) {
    return tx.premise().dataFiles(table).stream()
        .filter(f -> f.path().equals(path))
        .findFirst()
        .orElseThrow();
  }

  // ---- what is stored, against what the crate derives ------------------------------------------

  /** The stored keys of {@code index}, in hexadecimal. */
  private static Set<String> storedKeys(KvStore store, IndexInfo index) {
    return IndexEntryTexts.stored(store, index);
  }

  /**
   * The keys the crate derives for {@code index} (over {@code column}) from the table's live
   * inlined rows and files, as Java encodes them.
   */
  private Set<String> cratesKeys(IndexInfo index, String column) throws Exception {
    return IndexEntryTexts.cratesDerivation(dir, lake, data, "sales", "clients", index, column);
  }

  /** The indexes hold exactly the entries the crate derives from the live rows. */
  private void entriesAreTheCrates() throws Exception {
    entriesAreTheCratesFor(new String[][] {{"by_id", "id"}, {"by_name", "name"}, {"by_u", "u"}});
  }

  /** The indexes named (with their column) hold exactly the entries the crate derives. */
  private void entriesAreTheCratesFor(String[][] indexes) throws Exception {
    for (String[] index : indexes) {
      IndexInfo info;
      Set<String> stored;
      try (KvStore store = provider().openWriter();
          Catalog catalog = open(store, false)) {
        info = catalog.snapshot().indexByName(clients, index[0]).orElseThrow();
        stored = storedKeys(store, info);
      }
      assertEquals(cratesKeys(info, index[1]), stored, index[0]);
    }
  }

  private List<Long> lookup(String index, String value) throws Exception {
    return lookupIn(lake, index, value);
  }

  private List<Long> lookupIn(Path at, String index, String value) throws Exception {
    JsonNode view = CrateOracle.json(dir, "index-view", at.toString(), value);
    for (JsonNode t : view.get("tables")) {
      for (JsonNode i : t.get("indexes")) {
        if (i.get("name").asText().equals(index)) {
          List<Long> out = new ArrayList<>();
          i.at("/entries/lookups/" + value).forEach(n -> out.add(n.asLong()));
          return out;
        }
      }
    }
    throw new AssertionError("no index " + index + ": " + view);
  }

  // ---- the tests -------------------------------------------------------------------------------

  @Test
  void theCratesBackfillIsWhatItDerives() throws Exception {
    entriesAreTheCrates();
    assertEquals(List.of(3L), lookup("by_id", "4"), "f1's second row");
  }

  @Test
  void registeredFiles_fileRowDeletesAndUpdates_andDeleteFiles_keepTheEntries() throws Exception {
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      NewDataFile second = file(catalog, "f2.parquet", row(5, "Eve"), row(6, null));
      catalog.commit(tx -> tx.registerDataFile(clients, second));
      // A uuid is stored as text for an inlined row and as 16 bytes for a file row: the lookup
      // finds both.
      assertEquals(List.of(0L), catalog.lookupIndex(clients, "by_u", List.of(uuid(1))));
      assertEquals(List.of(4L), catalog.lookupIndex(clients, "by_u", List.of(uuid(5))));
      assertEquals(List.of(4L), catalog.lookupIndex(clients, "by_id", List.of(5L)));
      assertEquals(List.of(1L, 5L), catalog.lookupIndex(clients, "by_name", nullValue()));
    }
    entriesAreTheCrates();
    assertEquals(List.of(4L), lookup("by_id", "5"));
    assertEquals(List.of(4L), lookup("by_name", "Eve"));

    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      // f1's row with id 4 (row 3) gives its value up to a row inlined by the same commit.
      catalog.commit(
          tx -> {
            tx.insertInlined(clients, List.of(List.of(4L, "Dee", false, uuid(4))));
            tx.deleteRowInline(clients, 3);
          });
      // f2's row with id 5 (row 4) becomes id 7.
      catalog.commit(tx -> tx.updateRowInline(clients, 4, List.of(7L, "Eve", true, uuid(7))));
    }
    entriesAreTheCrates();
    assertEquals(List.of(6L), lookup("by_id", "4"));
    assertEquals(List.of(), lookup("by_id", "5"));
    assertEquals(List.of(4L), lookup("by_id", "7"));

    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      // A delete file of f1's first row (id 3).
      catalog.commit(
          tx -> {
            try {
              tx.registerDeleteFile(
                  clients, deleteFile(dataFile(tx, clients, "f1.parquet"), "f1-del.parquet", 0));
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
    }
    entriesAreTheCrates();
    assertEquals(List.of(), lookup("by_id", "3"));
    assertEquals(0, maintain().get("index_entries_reclaimed").asLong(), "the crate's sweep");
    assertEquals(0, maintain().get("file_column_stats_reclaimed").asLong());
  }

  /** The crate's maintenance sweep over the lake, and what it reclaimed. */
  private JsonNode maintain() throws Exception {
    return CrateOracle.json(dir, "maintain", lake.toString());
  }

  @Test
  void aFileHoldingAValueAnotherRowHolds_isRefused() throws Exception {
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      Head head = catalog.head();
      NewDataFile dup = file(catalog, "dup.parquet", row(9, "Flo"), row(3, "Gus"));
      DuplicateIndexValueException e =
          assertThrows(
              DuplicateIndexValueException.class,
              () -> catalog.commit(tx -> tx.registerDataFile(clients, dup)));
      assertEquals("by_id", e.indexName());
      assertEquals(List.of(3L), e.values());
      assertEquals(5, e.rowId(), "the file's second row");
      assertEquals(2, e.holderRowId(), "f1's first row");
      assertEquals(head, catalog.head());
    }
    entriesAreTheCrates();
  }

  @Test
  void aFlushDerivesTheFlushedRowsEntriesAgainFromItsFile() throws Exception {
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      // Row 1 (id 2) is deleted while inlined: the flush writes it with a delete file.
      catalog.commit(tx -> tx.deleteRowInline(clients, 1));
      InlineFlush flush =
          ParquetInlineFlush.write(catalog.snapshot(), clients, tableDir).orElseThrow();
      catalog.commit(tx -> tx.flushInlined(clients, flush));
      assertEquals(List.of(), catalog.snapshot().inlinedRows(clients).rows());
    }
    entriesAreTheCrates();
    assertEquals(List.of(0L), lookup("by_id", "1"));
    assertEquals(List.of(), lookup("by_id", "2"));
  }

  // ---- creating and dropping indexes -----------------------------------------------------------

  private static final String[][] INDEXES = {
    {"by_id", "unique", "id"}, {"by_name", "multi", "name"}, {"by_u", "multi", "u"}
  };

  /** Java creates, on the bare copy, the indexes the crate created, one commit each. */
  private void javaCreatesTheIndexes(Catalog catalog) {
    List<ColumnInfo> columns = catalog.snapshot().columns(clients);
    for (String[] index : INDEXES) {
      long column =
          columns.stream()
              .filter(c -> c.name().equals(index[2]))
              .findFirst()
              .orElseThrow()
              .columnId();
      catalog.commit(
          tx -> tx.createIndex(clients, index[0], List.of(column), index[1].equals("unique")));
    }
  }

  @Test
  void javaCreatesTheIndexesTheCrateCreates_byteForByte() throws Exception {
    Path crates = lake;
    lake = bare;
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      javaCreatesTheIndexes(catalog);
    }
    entriesAreTheCrates();
    CrateOracle.run(dir, "check", bare.toString());
    // The definitions, their entries and the snapshots that created them are the crate's.
    List<Object> ours = created(bare);
    List<Object> theirs = created(crates);
    assertEquals(theirs, ours);
    assertEquals(List.of(3L), lookupIn(bare, "by_id", "4"), "the crate finds f1's second row");
  }

  /**
   * What the last three commits of the lake at {@code at} wrote for the indexes: each index's
   * definition and stored entries, and each snapshot's schema version, changes and counters.
   */
  private List<Object> created(Path at) throws Exception {
    List<Object> out = new ArrayList<>();
    Path before = lake;
    lake = at;
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, false)) {
      for (IndexInfo i : catalog.snapshot().indexes(clients)) {
        out.add(i.toString());
        out.add(storedKeys(store, i));
      }
      long head = catalog.head().snapshotId();
      for (long n = head - 2; n <= head; n++) {
        var r = catalog.snapshotAt(n).info();
        out.add(
            List.of(
                r.schemaVersion(),
                r.changesMade(),
                r.nextCatalogId(),
                r.nextFileId(),
                r.schemaChangedTableIds(),
                catalog.snapshotAt(n).schemaVersions(clients)));
      }
    } finally {
      lake = before;
    }
    return out;
  }

  @Test
  void anIndexCreatedAfterDeletions_listsTheLiveRowsOnly() throws Exception {
    lake = bare;
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      catalog.commit(tx -> tx.deleteRowInline(clients, 1));
      catalog.commit(tx -> tx.deleteRowInline(clients, 3));
      catalog.commit(
          tx -> {
            try {
              tx.registerDeleteFile(
                  clients, deleteFile(dataFile(tx, clients, "f1.parquet"), "f1-del.parquet", 0, 1));
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      javaCreatesTheIndexes(catalog);
      // Rows changed after the index exists keep its entries.
      catalog.commit(tx -> tx.insertInlined(clients, List.of(List.of(9L, "Ivy", true, uuid(9)))));
    }
    entriesAreTheCrates();
    assertEquals(List.of(4L), lookupIn(bare, "by_id", "9"));
  }

  @Test
  void aUniqueIndexOverRowsHoldingAValueTwice_isRefused() throws Exception {
    lake = bare;
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      catalog.commit(tx -> tx.insertInlined(clients, List.of(List.of(3L, "Cy", true, uuid(3)))));
      long id = catalog.snapshot().columns(clients).get(0).columnId();
      Head head = catalog.head();
      DuplicateIndexValueException e =
          assertThrows(
              DuplicateIndexValueException.class,
              () -> catalog.commit(tx -> tx.createIndex(clients, "by_id", List.of(id), true)));
      assertEquals(List.of(3L), e.values());
      assertEquals(head, catalog.head());
      assertEquals(List.of(), catalog.snapshot().indexes(clients));
      // Not unique, it lands.
      catalog.commit(tx -> tx.createIndex(clients, "by_id", List.of(id), false));
      assertEquals(List.of(2L, 4L), catalog.lookupIndex(clients, "by_id", List.of(3L)));
    }
  }

  @Test
  void droppingAnIndex_endsItsDefinitionAsTheCratesDropDoes() throws Exception {
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, true)) {
      catalog.commit(tx -> tx.dropIndex(clients, "by_name"));
      assertEquals(
          List.of("by_id", "by_u"),
          catalog.snapshot().indexes(clients).stream().map(IndexInfo::name).toList());
      assertThrows(
          dev.moraine.core.catalog.NotFoundException.class,
          () -> catalog.lookupIndex(clients, "by_name", List.of("Ada")));
      // The dropped index keeps no entries up to date: a new row gets none in it.
      catalog.commit(tx -> tx.insertInlined(clients, List.of(List.of(9L, "Ada", true, uuid(9)))));
    }
    CrateOracle.run(dir, "check", lake.toString());
    JsonNode view = CrateOracle.json(dir, "index-view", lake.toString());
    List<String> names = new ArrayList<>();
    view.get("tables").get(0).get("indexes").forEach(i -> names.add(i.get("name").asText()));
    assertEquals(List.of("by_id", "by_u"), names);
    assertEquals(List.of(4L), lookup("by_id", "9"));
    // The crate's sweep reclaims the dropped index's entries, those of rows 0 to 3, and nothing
    // else; a second sweep finds nothing.
    JsonNode swept = maintain();
    assertEquals(1, swept.get("indexes_swept").asLong(), swept.toString());
    assertEquals(4, swept.get("index_entries_reclaimed").asLong(), swept.toString());
    assertEquals(0, maintain().get("index_entries_reclaimed").asLong());
    entriesAreTheCratesFor(new String[][] {{"by_id", "id"}, {"by_u", "u"}});
  }

  @Test
  void withoutFileIndexValues_theFileVerbsAreRefused() throws Exception {
    try (KvStore store = provider().openWriter();
        Catalog catalog = open(store, false)) {
      NewDataFile second = file(catalog, "f2.parquet", row(5, "Eve"));
      IndexedTableException e =
          assertThrows(
              IndexedTableException.class,
              () -> catalog.commit(tx -> tx.registerDataFile(clients, second)));
      assertEquals(List.of("by_id", "by_name", "by_u"), e.indexNames());
      assertThrows(
          IndexedTableException.class, () -> catalog.commit(tx -> tx.deleteRowInline(clients, 2)));
      InlineFlush flush =
          ParquetInlineFlush.write(catalog.snapshot(), clients, tableDir).orElseThrow();
      assertThrows(
          IndexedTableException.class, () -> catalog.commit(tx -> tx.flushInlined(clients, flush)));
      // Inlined rows need no file: they land.
      catalog.commit(tx -> tx.insertInlined(clients, List.of(List.of(8L, "Hal", true, uuid(8)))));
    }
    entriesAreTheCrates();
  }
}
