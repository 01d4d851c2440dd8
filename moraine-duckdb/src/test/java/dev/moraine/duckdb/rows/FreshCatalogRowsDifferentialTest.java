package dev.moraine.duckdb.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.DuckLakeRowDiff;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.MetadataRow;
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A freshly bootstrapped catalog, kept in real SlateDB and rendered through {@link
 * DuckLakeRowRenderer}, holds exactly the rows stock DuckLake 1.5.5 writes into a fresh metadata
 * catalog, table by table, all 28 of them. Normalised before comparing, and only these: every UUID
 * column (random on both sides), every TIMESTAMPTZ column (wall clock), and the values of two
 * {@code ducklake_metadata} keys: {@code created_by} (DuckDB's source id there, this library's name
 * here) and {@code data_path} (an absolute path under each side's own directory).
 */
class FreshCatalogRowsDifferentialTest {
  @TempDir static Path dir;

  private static Map<String, List<Map<String, Object>>> stock;
  private static DuckLakeRowSet ours;

  @BeforeAll
  static void renderBoth() throws Exception {
    stock = new LinkedHashMap<>();
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir.resolve("stock"))) {
      for (TableDef def : DuckLakeTables.ALL) {
        stock.put(def.name(), lake.rows(def.name()));
      }
    }
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory("fresh-rows-" + UUID.randomUUID()), "lake"));
    try (KvStore store = provider.openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withDataPath("/somewhere/data/"))) {
      ours = DuckLakeRowRenderer.render(catalog.snapshot());
    } finally {
      ObjectStoreSpec.dropInMemory(
          ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
    }
  }

  @Test
  void everyTable_holdsStockDuckLakesRows() {
    assertEquals(List.of(), DuckLakeRowDiff.differences(stock, ours));
  }

  @Test
  void theDataPath_endsInASlashOnBothSides() {
    // The comparison masks data_path's value; what it must still hold is the trailing slash.
    List<Object> stockPaths =
        stock.get(MetadataRow.TABLE).stream()
            .filter(r -> "data_path".equals(r.get("key")))
            .map(r -> r.get("value"))
            .toList();
    List<Object> ourPaths =
        ours.rows(MetadataRow.TABLE).stream()
            .map(DuckLakeRowDiff::asMap)
            .filter(r -> "data_path".equals(r.get("key")))
            .map(r -> r.get("value"))
            .toList();
    assertEquals(1, stockPaths.size(), "stock data_path rows: " + stockPaths);
    assertEquals(1, ourPaths.size(), "our data_path rows: " + ourPaths);
    for (Object path : List.of(stockPaths.get(0), ourPaths.get(0))) {
      assertTrue(String.valueOf(path).endsWith("/"), "data_path ends in '/': " + path);
    }
  }

  @Test
  void theFreshCatalog_isNotEmptyOnEitherSide() {
    // The comparison above would pass on two empty renderings; pin what a fresh catalog holds.
    assertEquals(4, ours.rows(MetadataRow.TABLE).size());
    assertEquals(1, ours.rows("ducklake_snapshot").size());
    assertEquals(1, ours.rows("ducklake_snapshot_changes").size());
    assertEquals(1, ours.rows("ducklake_schema").size());
    assertEquals(4, stock.get(MetadataRow.TABLE).size());
    assertTrue(ours.inlinedTables().isEmpty(), "no inlined-data table in a fresh catalog");
  }
}
