package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.LocalFileIndexValues;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.parquet.ParquetInlineFlush;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index fidelity in both directions, at every snapshot: the Java writer and the Rust crate commit
 * in turn to one indexed table, each keeping the indexes as it does (Java deriving the entries from
 * the rows and files, the crate taking the ones its writer supplies, {@code moraine-oracle
 * index-write}), inlined rows, data files, inline deletes and updates, delete files, a flush, an
 * index created by each side and one dropped. After every commit, whoever made it:
 *
 * <ul>
 *   <li>each live index holds, byte for byte, the entries the crate derives from the table's live
 *       rows and files (what the crate reads);
 *   <li>an index Java creates afresh over the same columns, on a copy of the lake, holds the same
 *       entries (what Java reads);
 *   <li>Java's lookups return the crate's, for every value written and for NULL;
 *   <li>the crate's maintenance sweep finds nothing to reclaim, but for the entries of the index
 *       the crate dropped, once.
 * </ul>
 */
class IndexFidelityTest {
  private static final String[] IDS = {
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"
  };
  private static final String[] NAMES = {
    "Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"
  };

  @TempDir Path dir;
  private Path lake;
  private Path data;
  private Path tableDir;
  private long clients;
  private int checks;

  private static SlateStoreProvider provider(Path at) {
    return new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(at), ""));
  }

  /** One Java commit, with the catalog reading data files through {@link LocalFileIndexValues}. */
  /** Work on an open catalog. */
  private interface CatalogWork {
    void on(Catalog catalog) throws Exception;
  }

  private void java(CatalogWork work) throws Exception {
    try (KvStore store = provider(lake).openWriter();
        Catalog catalog =
            Catalog.open(
                store,
                CatalogOptions.defaults()
                    .withDataPath(data + "/")
                    .withFileIndexValues(LocalFileIndexValues.of(data)))) {
      work.on(catalog);
    }
  }

  /** One crate commit: {@code index-write <lake> <data> sales clients <verb> <args>}. */
  private String crate(String verb, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of("index-write", lake.toString(), data.toString(), "sales", "clients", verb));
    command.addAll(List.of(args));
    return CrateOracle.run(dir, command.toArray(String[]::new)).strip();
  }

  /** The schema version the table's inlined rows go under now, as the Java writer picks it. */
  private String currentVersion() throws Exception {
    long[] v = new long[1];
    java(
        c ->
            v[0] =
                c.snapshot().schemaVersions(clients).stream()
                    .mapToLong(SchemaVersionInfo::schemaVersion)
                    .max()
                    .orElseThrow());
    return Long.toString(v[0]);
  }

  private ClientFiles files() {
    return new ClientFiles(tableDir, id -> null);
  }

  private NewDataFile file(String name, Object[]... rows) throws Exception {
    List<ColumnInfo> columns = new ArrayList<>();
    java(c -> columns.addAll(c.snapshot().columns(clients)));
    return files().dataFile(columns, name, rows);
  }

  private NewDeleteFile deleteFile(String target, String name, long... positions) throws Exception {
    DataFileInfo[] info = new DataFileInfo[1];
    java(
        c ->
            info[0] =
                c.snapshot().dataFiles(clients).stream()
                    .filter(f -> f.path().equals(target))
                    .findFirst()
                    .orElseThrow());
    return files().deleteFile(info[0], name, positions);
  }

  private static Object[] row(long id, String name) {
    return ClientFiles.row(id, name);
  }

  @Test
  void javaAndTheCrateWritingInTurn_leaveTheEntriesBothDerive() throws Exception {
    lake = dir.resolve("lake");
    data = dir.resolve("data");
    Files.createDirectories(data);
    java(
        c -> {
          c.commit(
              tx -> {
                clients =
                    tx.createTable(
                        tx.createSchema("sales"),
                        "clients",
                        List.of(
                            ColumnDef.of("id", "int64"),
                            ColumnDef.of("name", "varchar"),
                            ColumnDef.of("ok", "boolean")));
              });
          List<ColumnInfo> columns = c.snapshot().columns(clients);
          c.commit(
              tx -> tx.createIndex(clients, "by_id", List.of(columns.get(0).columnId()), true));
          c.commit(
              tx -> tx.createIndex(clients, "by_name", List.of(columns.get(1).columnId()), false));
          tableDir = LocalFileMerger.of(c, data).tableDirectory(c.snapshot(), clients);
        });
    Files.createDirectories(tableDir);
    agree("Java created the indexes", 0);

    // The crate inlines first under a schema version: it refuses a version whose Arrow schema
    // record Java wrote (RFC 0002 §9.3).
    assertEquals("0", crate("insert", currentVersion(), "1:Ada", "2:-"));
    agree("the crate inlined rows 0 and 1", 0);

    java(
        c ->
            c.commit(
                tx ->
                    tx.insertInlined(
                        clients, List.of(List.of(3L, "Bob", false), rowOf(4, "Ada")))));
    agree("Java inlined rows 2 and 3", 0);

    NewDataFile f1 = file("f1.parquet", row(5, "Cy"), row(6, "Ada"));
    java(c -> c.commit(tx -> tx.registerDataFile(clients, f1)));
    agree("Java registered f1 (rows 4 and 5)", 0);

    NewDataFile f2 = files().dataFile(columns(), "f2.parquet", row(7, "Dee"), row(8, null));
    crate("register", "f2.parquet", Long.toString(f2.fileSizeBytes()), "7:Dee", "8:-");
    agree("the crate registered f2 (rows 6 and 7)", 0);

    java(c -> c.commit(tx -> tx.deleteRowInline(clients, 0)));
    agree("Java deleted the crate's inlined row 0", 0);

    crate("delete", "2");
    agree("the crate deleted Java's inlined row 2", 0);

    NewDeleteFile f1Deletes = deleteFile("f1.parquet", "f1-del.parquet", 0);
    crate(
        "delete-file",
        "f1.parquet",
        "f1-del.parquet",
        Long.toString(f1Deletes.fileSizeBytes()),
        "0");
    agree("the crate registered a delete file of f1's row 4", 0);

    NewDeleteFile f2Deletes = deleteFile("f2.parquet", "f2-del.parquet", 1);
    java(c -> c.commit(tx -> tx.registerDeleteFile(clients, f2Deletes)));
    agree("Java registered a delete file of f2's row 7", 0);

    java(
        c -> {
          InlineFlush flush =
              ParquetInlineFlush.write(c.snapshot(), clients, tableDir).orElseThrow();
          c.commit(tx -> tx.flushInlined(clients, flush));
        });
    agree("Java flushed the inlined rows", 0);

    java(c -> c.commit(tx -> tx.updateRowInline(clients, 5, List.of(9L, "Eve", false))));
    agree("Java updated f1's row 5", 0);

    CrateOracle.run(
        dir,
        "create-index",
        lake.toString(),
        data.toString(),
        "sales",
        "clients",
        "by_ok",
        "multi",
        "ok");
    agree("the crate created by_ok", 0);

    assertEquals("8", crate("insert", currentVersion(), "11:Gus", "12:Ada"));
    agree("the crate inlined rows 8 and 9", 0);

    java(c -> c.commit(tx -> tx.insertInlined(clients, List.of(rowOf(10, "Fay")))));
    agree("Java inlined row 10", 0);

    java(c -> c.commit(tx -> tx.updateRowInline(clients, 8, List.of(13L, "Hal", false))));
    agree("Java updated the crate's inlined row 8", 0);

    crate("delete", "10");
    agree("the crate deleted Java's inlined row 10", 0);

    crate("drop-index", "by_name");
    // The sweep reclaims the dropped index's entries, one for each row live when it was dropped:
    // 1, 3, 5, 6, 8 and 9 (the deletes took the others' entries).
    agree("the crate dropped by_name", 6);

    java(c -> c.commit(tx -> tx.insertInlined(clients, List.of(rowOf(14, "Ivy")))));
    agree("Java inlined a row under by_id and by_ok only", 0);
  }

  private static List<Object> rowOf(long id, String name) {
    return Arrays.asList(id, name, id % 2 == 0);
  }

  private List<ColumnInfo> columns() throws Exception {
    List<ColumnInfo> columns = new ArrayList<>();
    java(c -> columns.addAll(c.snapshot().columns(clients)));
    return columns;
  }

  /**
   * Both implementations agree on every live index after {@code step}, and the crate's sweep
   * reclaims {@code reclaimed} entries (then none).
   */
  private void agree(String step, long reclaimed) throws Exception {
    Map<String, Set<String>> stored = new LinkedHashMap<>();
    Map<String, List<String>> columnsOf = new LinkedHashMap<>();
    Map<String, Map<String, List<Long>>> javaLookups = new LinkedHashMap<>();
    List<IndexInfo> indexes = new ArrayList<>();
    try (KvStore store = provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      List<ColumnInfo> columns = catalog.snapshot().columns(clients);
      for (IndexInfo i : catalog.snapshot().indexes(clients)) {
        indexes.add(i);
        stored.put(i.name(), IndexEntryTexts.stored(store, i));
        List<String> names = new ArrayList<>();
        for (long id : i.columnIds()) {
          names.add(
              columns.stream().filter(c -> c.columnId() == id).findFirst().orElseThrow().name());
        }
        columnsOf.put(i.name(), names);
        Map<String, List<Long>> found = new LinkedHashMap<>();
        found.put("null", catalog.lookupIndex(clients, i.name(), Arrays.asList((Object) null)));
        String column = names.get(0);
        if (column.equals("id")) {
          for (String v : IDS) {
            found.put(v, catalog.lookupIndex(clients, i.name(), List.of(Long.parseLong(v))));
          }
        } else if (column.equals("name")) {
          for (String v : NAMES) {
            found.put(v, catalog.lookupIndex(clients, i.name(), List.of(v)));
          }
        }
        javaLookups.put(i.name(), found);
      }
    }

    // What the crate reads: the entries it derives from the live rows and files.
    for (IndexInfo i : indexes) {
      assertEquals(
          IndexEntryTexts.cratesDerivation(
              dir,
              lake,
              data,
              "sales",
              "clients",
              i,
              columnsOf.get(i.name()).toArray(String[]::new)),
          stored.get(i.name()),
          step + ": " + i.name() + " against the crate's derivation");
    }

    // What Java reads: an index created afresh over the same columns, on a copy.
    Path twin = dir.resolve("twin-" + (++checks));
    LakeCopy.copy(lake, twin);
    try (KvStore store = provider(twin).openWriter();
        Catalog catalog =
            Catalog.open(
                store,
                CatalogOptions.defaults().withFileIndexValues(LocalFileIndexValues.of(data)))) {
      for (IndexInfo i : indexes) {
        catalog.commit(
            tx -> tx.createIndex(clients, "twin_" + i.name(), i.columnIds(), i.unique()));
        IndexInfo created =
            catalog.snapshot().indexByName(clients, "twin_" + i.name()).orElseThrow();
        assertEquals(
            IndexEntryTexts.withoutIndexId(stored.get(i.name())),
            IndexEntryTexts.withoutIndexId(IndexEntryTexts.stored(store, created)),
            step + ": " + i.name() + " against Java's derivation");
      }
    }

    // Lookups: Java's against the crate's.
    List<String> view = new ArrayList<>(List.of("index-view", lake.toString()));
    view.addAll(List.of(IDS));
    view.addAll(List.of(NAMES));
    JsonNode tables = CrateOracle.json(dir, view.toArray(String[]::new)).get("tables");
    Map<String, Map<String, List<Long>>> crateLookups = new LinkedHashMap<>();
    for (JsonNode i : tables.get(0).get("indexes")) {
      Map<String, List<Long>> found = new LinkedHashMap<>();
      found.put("null", longs(i.at("/entries/null")));
      String column = columnsOf.get(i.get("name").asText()).get(0);
      for (String v : column.equals("id") ? IDS : column.equals("name") ? NAMES : new String[0]) {
        found.put(v, longs(i.at("/entries/lookups/" + v)));
      }
      crateLookups.put(i.get("name").asText(), found);
    }
    assertEquals(crateLookups, javaLookups, step + ": lookups");

    JsonNode swept = CrateOracle.json(dir, "maintain", lake.toString());
    assertEquals(reclaimed, swept.get("index_entries_reclaimed").asLong(), step + ": " + swept);
    assertEquals(0, swept.get("file_column_stats_reclaimed").asLong(), step + ": " + swept);
    if (reclaimed > 0) {
      swept = CrateOracle.json(dir, "maintain", lake.toString());
      assertEquals(0, swept.get("index_entries_reclaimed").asLong(), step + ": " + swept);
    }
  }

  private static List<Long> longs(JsonNode array) {
    List<Long> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asLong()));
    return out;
  }
}
