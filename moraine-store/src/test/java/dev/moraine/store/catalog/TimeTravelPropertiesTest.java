package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.SlateStoreProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random histories of table and column creates, renames and drops, written the way a commit writes
 * them, read back at every snapshot and compared with a model of what each snapshot held: through a
 * writer catalog (head views carried across commits, and time travel) and through a fresh read-only
 * catalog.
 */
class TimeTravelPropertiesTest {
  /** One step: 0 create a table, 1 rename one, 2 drop one, 3 add a column, 4 drop a column. */
  record Step(int op, int pick) {}

  @Provide
  Arbitrary<List<Step>> histories() {
    return Arbitraries.integers()
        .between(0, 4)
        .flatMap(op -> Arbitraries.integers().between(0, 50).map(pick -> new Step(op, pick)))
        .list()
        .ofMinSize(1)
        .ofMaxSize(25);
  }

  @Property(tries = 40)
  void everySnapshotReadsAsTheModelSays(@ForAll("histories") List<Step> history) {
    SlateStoreProvider provider = Stores.inMemory();
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      LakeFixture fixture = new LakeFixture(store);
      // Model: snapshot id -> table id -> (name, column id -> column name).
      List<Map<Long, Map.Entry<String, Map<Long, String>>>> model = new ArrayList<>();
      model.add(new TreeMap<>());
      Map<Long, Map.Entry<String, Map<Long, String>>> live = new TreeMap<>();
      Map<Long, Long> nextColumn = new TreeMap<>();
      List<CatalogSnapshot> headViews = new ArrayList<>();
      headViews.add(catalog.snapshot());
      for (Step step : history) {
        List<Long> tables = new ArrayList<>(live.keySet());
        fixture.commit(
            "step",
            c -> {
              c.schemaChange();
              if (step.op() == 0 || tables.isEmpty()) {
                long id = c.catalogId();
                String name = "t" + id;
                c.put(new EntityKey.Table(id), TimeTravelLake.table(id, c.n, name, 1));
                live.put(id, Map.entry(name, new TreeMap<>()));
                nextColumn.put(id, 1L);
                return;
              }
              long t = tables.get(step.pick() % tables.size());
              Map<Long, String> columns = new TreeMap<>(live.get(t).getValue());
              switch (step.op()) {
                case 1 -> {
                  String name = "t" + t + "@" + c.n;
                  c.put(new EntityKey.Table(t), TimeTravelLake.table(t, c.n, name, 1));
                  live.put(t, Map.entry(name, columns));
                }
                case 2 -> {
                  c.drop(new EntityKey.Table(t));
                  for (long col : columns.keySet()) {
                    c.drop(new EntityKey.Column(t, col));
                  }
                  live.remove(t);
                }
                case 3 -> {
                  long col = nextColumn.merge(t, 1L, Long::sum) - 1;
                  String name = "c" + col + "@" + c.n;
                  c.put(
                      new EntityKey.Column(t, col),
                      TimeTravelLake.column(t, col, c.n, col, name, "int64", null));
                  columns.put(col, name);
                  live.put(t, Map.entry(live.get(t).getKey(), columns));
                }
                default -> {
                  if (!columns.isEmpty()) {
                    long col = new ArrayList<>(columns.keySet()).get(step.pick() % columns.size());
                    c.drop(new EntityKey.Column(t, col));
                    columns.remove(col);
                    live.put(t, Map.entry(live.get(t).getKey(), columns));
                  }
                }
              }
            });
        Map<Long, Map.Entry<String, Map<Long, String>>> copy = new TreeMap<>();
        live.forEach((k, v) -> copy.put(k, Map.entry(v.getKey(), new TreeMap<>(v.getValue()))));
        model.add(copy);
        CatalogSnapshot head = catalog.snapshot();
        assertEquals(model.size() - 1, head.snapshotId());
        headViews.add(head);
      }
      try (ReadOnlyCatalog fresh = Catalog.openReadOnly(store, CatalogOptions.defaults())) {
        for (int s = 0; s < model.size(); s++) {
          Object expected = model.get(s);
          assertEquals(expected, read(catalog.snapshotAt(s)), "time travel to " + s);
          assertEquals(expected, read(headViews.get(s)), "head view " + s + ", read late");
          assertEquals(expected, read(fresh.snapshotAt(s)), "fresh catalog at " + s);
        }
      }
    } finally {
      Stores.drop(provider);
    }
  }

  private static Map<Long, Map.Entry<String, Map<Long, String>>> read(CatalogSnapshot s) {
    Map<Long, Map.Entry<String, Map<Long, String>>> out = new TreeMap<>();
    for (TableInfo t : s.tables()) {
      Map<Long, String> columns = new TreeMap<>();
      for (ColumnInfo c : s.columns(t.tableId())) {
        columns.put(c.columnId(), c.name());
      }
      out.put(t.tableId(), Map.entry(t.name(), columns));
      assertEquals(
          Map.entry(t.name(), columns).getKey(), s.table(t.tableId()).orElseThrow().name());
    }
    return out;
  }
}
