package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading the lake {@code moraine-oracle write-indexed} writes ({@code sales.clients} with the
 * UNIQUE index {@code by_id} over {@code id} and the index {@code by_name} over {@code name}, and
 * its neighbours), and the crate's view of its indexes ({@code moraine-oracle index-view}).
 */
final class IndexedLakes {
  private IndexedLakes() {}

  /** The crate's index view of the lake at {@code dir}, looking each of {@code probes} up. */
  static JsonNode indexView(RustOracle oracle, Path dir, List<String> probes) throws IOException {
    List<String> args = new ArrayList<>(List.of("index-view", dir.toString()));
    args.addAll(probes);
    return JsonTrees.parse(oracle.run(args.toArray(String[]::new)));
  }

  static JsonNode table(JsonNode view, String name) {
    for (JsonNode t : view.get("tables")) {
      if (t.get("table").asText().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("the index view has no table " + name + ": " + view);
  }

  static JsonNode index(JsonNode view, String tableName, String indexName) {
    for (JsonNode i : table(view, tableName).get("indexes")) {
      if (i.get("name").asText().equals(indexName)) {
        return i;
      }
    }
    throw new AssertionError("table " + tableName + " has no index " + indexName);
  }

  static List<Long> longs(JsonNode array) {
    List<Long> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asLong()));
    return out;
  }

  /**
   * Java's lookups ({@link ReadOnlyCatalog#lookupIndex}) of the lake at {@code dir} give, for every
   * value and for NULL, the rows the crate's lookups gave in {@code view}, in every ready index of
   * one column.
   */
  static void javaLookupsAgree(Path dir, JsonNode view) throws IOException {
    try (KvReader reader = Lakes.provider(dir).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      for (JsonNode t : view.get("tables")) {
        long tableId = t.get("table_id").asLong();
        for (JsonNode i : t.get("indexes")) {
          if (i.get("entries").isNull() || i.get("columns").size() != 1) {
            continue;
          }
          String name = i.get("name").asText();
          long columnId = i.get("columns").get(0).asLong();
          String type =
              catalog.snapshot().columns(tableId).stream()
                  .filter(c -> c.columnId() == columnId)
                  .findFirst()
                  .orElseThrow()
                  .type();
          var lookups = i.at("/entries/lookups").fields();
          int looked = 0;
          while (lookups.hasNext()) {
            var e = lookups.next();
            Object value = type.equals("int64") ? (Object) Long.valueOf(e.getKey()) : e.getKey();
            assertEquals(
                longs(e.getValue()),
                catalog.lookupIndex(tableId, name, List.of(value)),
                name + " = " + e.getKey());
            looked++;
          }
          assertTrue(looked > 0, name + " was looked up");
          assertEquals(
              longs(i.at("/entries/null")),
              catalog.lookupIndex(tableId, name, java.util.Arrays.asList((Object) null)),
              name + " IS NULL");
        }
      }
    }
  }

  static long salesId(ReadOnlyCatalog catalog) {
    return catalog.snapshot().schemaByName("sales").orElseThrow().schemaId();
  }

  static long tableId(Transaction tx, String name) {
    long sales = tx.schemaByName("sales").orElseThrow().schemaId();
    return tx.tableByName(sales, name).orElseThrow().tableId();
  }

  static long clients(Transaction tx) {
    return tableId(tx, "clients");
  }
}
