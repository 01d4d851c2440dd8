package dev.moraine.duckdb.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.ColumnDef;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.MetadataRow;
import dev.moraine.ducklake.rows.SqlType;
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
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
  private static final String UUID_MARK = "<uuid>";
  private static final String TIME_MARK = "<time>";

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
    List<String> differing = new ArrayList<>();
    for (TableDef def : DuckLakeTables.ALL) {
      List<String> theirs =
          stock.get(def.name()).stream().map(r -> normalised(def, r)).sorted().toList();
      List<String> mine =
          ours.rows(def.name()).stream().map(r -> normalised(def, asMap(r))).sorted().toList();
      if (!theirs.equals(mine)) {
        differing.add(def.name() + "\n  stock: " + theirs + "\n  ours:  " + mine);
      }
    }
    assertEquals(List.of(), differing);
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

  private static Map<String, Object> asMap(DuckLakeRow row) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> values = row.values();
    for (int i = 0; i < values.size(); i++) {
      m.put(row.def().columns().get(i).name(), values.get(i));
    }
    return m;
  }

  /** One row as text with the documented fields masked; numbers compared by value. */
  private static String normalised(TableDef def, Map<String, Object> row) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (ColumnDef c : def.columns()) {
      Object v = row.get(c.name());
      if (v != null && c.type() == SqlType.UUID) {
        v = UUID_MARK;
      } else if (v != null && c.type() == SqlType.TIMESTAMPTZ) {
        v = TIME_MARK;
      } else if (v instanceof Number n) {
        v = n.longValue();
      }
      out.put(c.name(), v);
    }
    if (def.name().equals(MetadataRow.TABLE)) {
      Object key = out.get("key");
      if ("created_by".equals(key)) {
        out.put("value", "<created_by>");
      } else if ("data_path".equals(key)) {
        String path = String.valueOf(out.get("value"));
        assertTrue(path.endsWith("/"), "data_path ends in '/': " + path);
        out.put("value", "<data_path>");
      }
    }
    return out.toString();
  }
}
