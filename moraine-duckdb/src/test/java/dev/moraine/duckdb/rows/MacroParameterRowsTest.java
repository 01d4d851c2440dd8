package dev.moraine.duckdb.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.duckdb.reference.DuckLakeRowDiff;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.MacroParametersRow;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A macro's parameters render as stock DuckLake 1.5.5 writes them: one without a default holds the
 * text {@code NULL} in {@code default_value} (not SQL NULL), one with a default its text and type.
 */
class MacroParameterRowsTest {
  @TempDir Path dir;

  @Test
  void parametersWithAndWithoutADefault_renderAsStockWritesThem() throws Exception {
    List<String> stock;
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      lake.execute("CREATE MACRO m(x) AS x + 1");
      lake.execute("CREATE MACRO m2(x, y := 5) AS x + y");
      stock =
          lake.rows(MacroParametersRow.TABLE).stream()
              .map(r -> DuckLakeRowDiff.normalised(MacroParametersRow.DEF, r))
              .sorted()
              .toList();
    }
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory("macro-rows-" + UUID.randomUUID()), "lake"));
    try (KvStore store = provider.openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withDataPath("/somewhere/data/"))) {
      catalog.commit(
          tx ->
              tx.createMacro(
                  0,
                  "m",
                  NewMacro.of(
                      NewMacro.Implementation.scalar(
                          "(x + 1)", NewMacro.Parameter.of("x", "unknown")))));
      catalog.commit(
          tx ->
              tx.createMacro(
                  0,
                  "m2",
                  NewMacro.of(
                      NewMacro.Implementation.scalar(
                          "(x + y)",
                          NewMacro.Parameter.of("x", "unknown"),
                          new NewMacro.Parameter("y", "unknown", Optional.of("5"), "int32")))));
      List<String> ours =
          DuckLakeRowRenderer.render(catalog.snapshot()).rows(MacroParametersRow.TABLE).stream()
              .map(
                  r -> DuckLakeRowDiff.normalised(MacroParametersRow.DEF, DuckLakeRowDiff.asMap(r)))
              .sorted()
              .toList();
      assertEquals(stock, ours);
      assertEquals(3, ours.size(), ours.toString());
    } finally {
      ObjectStoreSpec.dropInMemory(
          ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
    }
  }
}
