package dev.moraine.store.oracle;

import static dev.moraine.store.oracle.IndexedLakes.clients;
import static dev.moraine.store.oracle.IndexedLakes.index;
import static dev.moraine.store.oracle.IndexedLakes.longs;
import static dev.moraine.store.oracle.IndexedLakes.salesId;
import static dev.moraine.store.oracle.IndexedLakes.table;
import static dev.moraine.store.oracle.IndexedLakes.tableId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lake the Rust crate wrote with equality indexes ({@code moraine-oracle write-indexed}: {@code
 * sales.clients} with the UNIQUE index {@code by_id} and the index {@code by_name} over rows in two
 * data files and inlined rows, {@code sales.pending} with an index whose staged build has begun,
 * {@code sales.former} whose index was dropped, {@code sales.notes} with none), opened by a Java
 * writer.
 *
 * <p>Every verb that changes the rows of an indexed table in a way whose index entries the library
 * cannot derive (a data file's rows; any row while an index is building), or drops or retypes a
 * column an index names, is refused with {@link IndexedTableException} naming the table and the
 * indexes; the store keeps exactly the keys it had, and the crate's view of its indexes
 * (definitions with build state, and what its range, NULL and equality lookups return; {@code
 * moraine-oracle index-view}) is what it was. The other verbs land, on the indexed table too, and
 * so do commits to the table without indexes, after which the crate's indexes answer as before.
 * Reads of the lake are the crate's. The inline verbs on the tables whose indexes are ready keep
 * the entries: IndexedInlineWritesTest.
 */
class IndexedLakeRefusalTest {
  /** The values every index view looks up, in each index whose column type they parse as. */
  private static final List<String> PROBES =
      List.of("1", "2", "3", "4", "5", "6", "7", "8", "Ada", "Bob", "Cy", "Eve", "Flo");

  private static final List<String> CLIENT_INDEXES = List.of("by_id", "by_name");

  /** Located once: a missing binary fails every test of the class (RustOracle.locate). */
  private static RustOracle oracle;

  @TempDir static Path temp;

  private static Path lake;
  private static JsonNode viewBefore;

  @BeforeAll
  static void writeTheIndexedLake() throws Exception {
    oracle = RustOracle.locate();
    lake = temp.resolve("indexed");
    oracle.run("write-indexed", lake.toString());
    viewBefore = indexView(lake);
  }

  private static JsonNode indexView(Path dir) throws IOException {
    return IndexedLakes.indexView(oracle, dir, PROBES);
  }

  /** A copy of the crate's lake for one test to write to. */
  private static Path copy(String name) throws IOException {
    Path dir = temp.resolve(name.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT));
    Lakes.copyTree(lake, dir);
    return dir;
  }

  // ---- what the crate wrote --------------------------------------------------------------------

  @Test
  void theCratesIndexesCoverTheRowsItWrote() {
    JsonNode byId = index(viewBefore, "clients", "by_id");
    assertTrue(byId.get("unique").asBoolean());
    assertEquals("ready", byId.get("state").asText());
    // Ids 1, 3, 6, 7 in the files (id 2 deleted), 4 and 5 inlined, in value order.
    assertEquals(List.of(0L, 2L, 5L, 6L, 3L, 4L), longs(byId.at("/entries/ordered")));
    assertEquals(List.of(2L), longs(byId.at("/entries/lookups/3")));
    assertEquals(List.of(), longs(byId.at("/entries/lookups/2")));
    assertEquals(List.of(5L), longs(byId.at("/entries/lookups/4")));
    assertEquals(List.of(), longs(byId.at("/entries/lookups/8")));
    assertFalse(byId.at("/entries/lookups").has("Ada"), "an int64 index takes no text lookup");

    JsonNode byName = index(viewBefore, "clients", "by_name");
    assertFalse(byName.get("unique").asBoolean());
    assertEquals("ready", byName.get("state").asText());
    assertEquals(List.of(0L, 2L, 4L), longs(byName.at("/entries/lookups/Ada")));
    assertEquals(List.of(), longs(byName.at("/entries/lookups/Bob")));
    assertEquals(List.of(6L), longs(byName.at("/entries/null")));

    JsonNode byCode = index(viewBefore, "pending", "by_code");
    assertEquals("building", byCode.get("state").asText());
    assertTrue(byCode.get("entries").isNull(), "a building index serves no lookups");
    assertEquals(2, viewBefore.get("tables").size(), "former and notes carry no live index");
  }

  @Test
  void javaLooksUpTheCratesIndexesAsTheCrateDoes() throws Exception {
    IndexedLakes.javaLookupsAgree(lake, viewBefore);
    try (KvReader reader = Lakes.provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      long pending =
          catalog.snapshot().tableByName(salesId(catalog), "pending").orElseThrow().tableId();
      assertThrows(
          dev.moraine.core.catalog.InvalidArgumentException.class,
          () -> catalog.lookupIndex(pending, "by_code", List.of("P-1")),
          "a building index serves no lookups");
      long clients =
          catalog.snapshot().tableByName(salesId(catalog), "clients").orElseThrow().tableId();
      assertThrows(
          dev.moraine.core.catalog.NotFoundException.class,
          () -> catalog.lookupIndex(clients, "by_nothing", List.of(1L)));
    }
  }

  @Test
  void javaReadsTheIndexedLakeAsTheCrateDoes() throws Exception {
    JsonTrees.assertSameTree(
        "moraine-oracle dump", oracle.dump(lake), "CatalogDump", Lakes.javaDump(lake, null));
    try (KvReader reader = Lakes.provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      CatalogSnapshot head = catalog.snapshot();
      for (JsonNode t : viewBefore.get("tables")) {
        List<IndexInfo> java = head.indexes(t.get("table_id").asLong());
        assertEquals(t.get("indexes").size(), java.size(), t.get("table").asText());
        for (int k = 0; k < java.size(); k++) {
          JsonNode rust = t.get("indexes").get(k);
          IndexInfo mine = java.get(k);
          assertEquals(rust.get("index_id").asLong(), mine.indexId());
          assertEquals(rust.get("name").asText(), mine.name());
          assertEquals(longs(rust.get("columns")), mine.columnIds());
          assertEquals(rust.get("unique").asBoolean(), mine.unique());
          String state = rust.get("state").asText();
          assertEquals(
              state.equals("ready") ? Optional.empty() : Optional.of(state), mine.buildState());
        }
      }
    }
  }

  // ---- refused ---------------------------------------------------------------------------------

  /** A verb call the writer must refuse, with the table and indexes the refusal must name. */
  record Refused(String name, String table, List<String> indexes, CommitBody body) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Refused> refusedVerbs() {
    return Stream.of(
        new Refused(
            "registerDataFile",
            "clients",
            CLIENT_INDEXES,
            tx ->
                tx.registerDataFile(clients(tx), NewDataFile.parquet("c-3.parquet", 2, 900, 200))),
        new Refused(
            "registerDataFile into the table whose index is building",
            "pending",
            List.of("by_code"),
            tx ->
                tx.registerDataFile(
                    tableId(tx, "pending"), NewDataFile.parquet("p-1.parquet", 1, 500, 100))),
        new Refused(
            "registerDataFileByName",
            "clients",
            CLIENT_INDEXES,
            tx ->
                tx.registerDataFileByName(
                    clients(tx),
                    NewDataFile.parquet("c-by-name.parquet", 2, 900, 200),
                    List.of(FileField.of("id"), FileField.of("name"), FileField.of("ok")))),
        new Refused(
            "registerDeleteFile",
            "clients",
            CLIENT_INDEXES,
            tx ->
                tx.registerDeleteFile(
                    clients(tx),
                    NewDeleteFile.parquet(
                        file(tx, "clients-2.parquet").dataFileId(),
                        "c-2-del.parquet",
                        1,
                        400,
                        90))),
        new Refused(
            "expireDataFile",
            "clients",
            CLIENT_INDEXES,
            tx -> tx.expireDataFile(clients(tx), file(tx, "clients-2.parquet").dataFileId())),
        new Refused(
            "expireDeleteFile",
            "clients",
            CLIENT_INDEXES,
            tx ->
                tx.expireDeleteFile(
                    clients(tx), tx.premise().deleteFiles(clients(tx)).get(0).deleteFileId())),
        new Refused(
            "insertInlined into the table whose index is building",
            "pending",
            List.of("by_code"),
            tx -> tx.insertInlined(tableId(tx, "pending"), List.of(List.of("P-1")))),
        new Refused(
            "updateRowInline of a file row",
            "clients",
            CLIENT_INDEXES,
            tx -> tx.updateRowInline(clients(tx), 0, List.of(1L, "Ada", false))),
        new Refused(
            "deleteRowInline of a file row",
            "clients",
            CLIENT_INDEXES,
            tx -> tx.deleteRowInline(clients(tx), 3)),
        new Refused(
            "flushInlined",
            "clients",
            CLIENT_INDEXES,
            tx ->
                tx.flushInlined(
                    clients(tx),
                    InlineFlush.of(NewDataFile.parquet("c-flushed.parquet", 2, 800, 200)))),
        new Refused(
            "dropColumn of the column by_id names",
            "clients",
            List.of("by_id"),
            tx -> tx.dropColumn(clients(tx), column(tx, "id"))),
        new Refused(
            "dropColumn of the column by_name names",
            "clients",
            List.of("by_name"),
            tx -> tx.dropColumn(clients(tx), column(tx, "name"))),
        new Refused(
            "changeColumnType of the column by_id names",
            "clients",
            List.of("by_id"),
            tx -> tx.changeColumnType(clients(tx), column(tx, "id"), "varchar")),
        new Refused(
            "a file for the table without indexes, then rows inlined into the indexed one, then"
                + " a file for it",
            "clients",
            CLIENT_INDEXES,
            tx -> {
              tx.registerDataFile(
                  tableId(tx, "notes"), NewDataFile.parquet("n-2.parquet", 3, 700, 150));
              tx.insertInlined(clients(tx), List.of(List.of(8L, "Flo", true)));
              tx.registerDataFile(clients(tx), NewDataFile.parquet("c-3.parquet", 1, 900, 200));
            }),
        new Refused(
            "insertInlined into the table whose index is building, after rows inlined into a"
                + " table whose indexes are ready",
            "pending",
            List.of("by_code"),
            tx -> {
              tx.insertInlined(clients(tx), List.of(List.of(8L, "Flo", true)));
              tx.insertInlined(tableId(tx, "pending"), List.of(List.of("P-1")));
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedVerbs")
  void refused_writesNothing_andTheCratesIndexesAreUnchanged(Refused verb) throws Exception {
    Path dir = copy(verb.name());
    SortedMap<String, String> before = Lakes.contents(dir);
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      Head head = catalog.head();
      long tableId =
          catalog.snapshot().tableByName(salesId(catalog), verb.table()).orElseThrow().tableId();
      IndexedTableException e =
          assertThrows(IndexedTableException.class, () -> catalog.commit(verb.body()));
      assertEquals(ErrorCode.INDEXED_TABLE, e.code());
      assertEquals(tableId, e.tableId());
      assertEquals("sales", e.schemaName());
      assertEquals(verb.table(), e.tableName());
      assertEquals(verb.indexes(), e.indexNames());
      for (String name : verb.indexes()) {
        assertTrue(e.getMessage().contains(name), e.getMessage());
      }
      assertTrue(e.getMessage().contains("sales." + verb.table()), e.getMessage());
      String lower = e.getMessage().toLowerCase(Locale.ROOT);
      for (String retryable : List.of("primary key", "unique", "conflict", "concurrent")) {
        assertFalse(lower.contains(retryable), e.getMessage());
      }
      assertEquals(head, catalog.head(), "the refused commit moved the head");
    }
    assertEquals(before, Lakes.contents(dir), "the refused commit changed a key");
    assertEquals(viewBefore, indexView(dir), "the crate's index view changed");
  }

  // ---- landing ---------------------------------------------------------------------------------

  @Test
  void tablesWithoutLiveIndexesTakeCommits_andTheCratesIndexesAnswerAsBefore() throws Exception {
    Path dir = copy("other-tables");
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long head = catalog.head().snapshotId();
      long landed =
          catalog.commit(
              tx -> {
                long notes = tableId(tx, "notes");
                tx.registerDataFile(notes, NewDataFile.parquet("n-2.parquet", 3, 700, 150));
                tx.insertInlined(notes, List.of(List.of(1L, "one"), List.of(2L, "two")));
                // Its only index was dropped: an ended definition refuses nothing.
                long former = tableId(tx, "former");
                tx.registerDataFile(former, NewDataFile.parquet("f-1.parquet", 2, 600, 150));
                tx.insertInlined(former, List.of(List.of(9L)));
              });
      assertEquals(head + 1, landed);
      CatalogSnapshot now = catalog.snapshot();
      for (String name : List.of("notes", "former")) {
        long id = now.tableByName(salesId(catalog), name).orElseThrow().tableId();
        assertEquals(name.equals("notes") ? 2 : 1, now.dataFiles(id).size(), name);
        assertEquals(name.equals("notes") ? 2 : 1, now.inlinedRows(id).rows().size(), name);
      }
    }
    JsonNode after = indexView(dir);
    assertEquals(viewBefore.get("tables"), after.get("tables"));
    assertEquals(viewBefore.get("head").asLong() + 1, after.get("head").asLong());
    JsonTrees.assertSameTree(
        "moraine-oracle check", oracle.check(dir), "CatalogDump", Lakes.javaDump(dir, null));
  }

  @Test
  void verbsThatLeaveRowsAndIndexedColumnsAlone_landOnTheIndexedTable() throws Exception {
    Path dir = copy("indexed-table-metadata");
    List<CommitBody> bodies =
        List.of(
            tx -> tx.renameColumn(clients(tx), column(tx, "id"), "client_id"),
            tx -> tx.addColumn(clients(tx), ColumnDef.of("score", "int32")),
            tx -> tx.changeColumnType(clients(tx), column(tx, "score"), "int64"),
            tx -> tx.dropColumn(clients(tx), column(tx, "ok")),
            tx -> tx.setColumnDefault(clients(tx), column(tx, "name"), "'n/a'"),
            tx -> tx.setColumnNullable(clients(tx), column(tx, "client_id"), false),
            tx -> tx.updateTableStats(clients(tx), 6, 4_096),
            tx ->
                tx.updateColumnStats(
                    clients(tx),
                    column(tx, "client_id"),
                    Optional.of(false),
                    Optional.empty(),
                    Optional.of("1"),
                    Optional.of("7"),
                    Optional.empty()),
            tx ->
                tx.setPartitionKey(clients(tx), List.of(PartitionKey.identity(column(tx, "name")))),
            tx ->
                tx.setSortKey(
                    clients(tx), List.of(new SortKey("name", "duckdb", "ASC", "NULLS_LAST"))),
            tx -> tx.setComment(new TagTarget.Table(clients(tx)), "clients of the shop"),
            tx -> tx.setTag(new TagTarget.Column(clients(tx), column(tx, "name")), "pii", "yes"),
            tx -> tx.renameTable(clients(tx), "customers"),
            tx ->
                tx.moveTable(
                    tableId(tx, "customers"), tx.schemaByName("main").orElseThrow().schemaId()));
    long clientsId;
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      clientsId =
          catalog.snapshot().tableByName(salesId(catalog), "clients").orElseThrow().tableId();
      long head = catalog.head().snapshotId();
      for (CommitBody body : bodies) {
        assertEquals(++head, catalog.commit(body));
      }
    }
    JsonNode after = indexView(dir);
    JsonNode renamed = table(after, "customers");
    assertEquals(clientsId, renamed.get("table_id").asLong());
    assertEquals("main", renamed.get("schema").asText());
    assertEquals(table(viewBefore, "clients").get("indexes"), renamed.get("indexes"));
    assertEquals(table(viewBefore, "pending"), table(after, "pending"));
    oracle.check(dir);
  }

  @Test
  void droppingTheIndexedTable_endsItsIndexesAsTheCratesDropDoes() throws Exception {
    Path dir = copy("drop-indexed-table");
    long clientsId;
    long dropped;
    try (KvStore store = Lakes.provider(dir).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      clientsId =
          catalog.snapshot().tableByName(salesId(catalog), "clients").orElseThrow().tableId();
      dropped = catalog.commit(tx -> tx.dropTable(clients(tx)));
      assertEquals(List.of(), catalog.snapshot().indexes(clientsId));
      assertEquals(
          CLIENT_INDEXES,
          catalog.snapshotAt(dropped - 1).indexes(clientsId).stream()
              .map(IndexInfo::name)
              .toList());
    }
    JsonNode after = indexView(dir);
    assertEquals(1, after.get("tables").size(), after.toString());
    assertEquals(table(viewBefore, "pending"), table(after, "pending"));
    oracle.check(dir);
  }

  // ---- lookups inside a closure ----------------------------------------------------------------

  /** A top-level column of {@code sales.clients}. */
  private static long column(Transaction tx, String name) {
    return tx.columns(clients(tx)).stream()
        .filter(c -> c.parentColumn().isEmpty() && c.name().equals(name))
        .findFirst()
        .orElseThrow()
        .columnId();
  }

  private static DataFileInfo file(Transaction tx, String path) {
    return tx.premise().dataFiles(clients(tx)).stream()
        .filter(f -> f.path().equals(path))
        .findFirst()
        .orElseThrow();
  }
}
