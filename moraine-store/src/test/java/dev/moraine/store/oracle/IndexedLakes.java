package dev.moraine.store.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
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

  static long salesId(Catalog catalog) {
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
