package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.SlateStoreProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@code CatalogSnapshot.history()} against a model: random histories of table creates, renames and
 * drops and column adds and drops, written the way a commit writes them. At every snapshot S the
 * table and column versions it reports are exactly the model's versions begun by S, each with its
 * end only when that end is at or before S, through the writer catalog and a fresh read-only one.
 */
class CatalogHistoryPropertiesTest {
  /** One step: 0 create a table, 1 rename one, 2 drop one, 3 add a column, 4 drop a column. */
  record Step(int op, int pick) {}

  /** One version in the model: its id(s), name, begin, and end (null while it is live). */
  static final class Version {
    final List<Long> id;
    final String name;
    final long begin;
    Long end;

    Version(List<Long> id, String name, long begin) {
      this.id = id;
      this.name = name;
      this.begin = begin;
    }

    /** As seen from S: [id..., name, begin, end or null]. */
    List<Object> at(long s) {
      List<Object> out = new ArrayList<>(id);
      out.add(name);
      out.add(begin);
      out.add(end != null && end <= s ? end : null);
      return out;
    }
  }

  @Provide
  Arbitrary<List<Step>> histories() {
    return Arbitraries.integers()
        .between(0, 4)
        .flatMap(op -> Arbitraries.integers().between(0, 50).map(pick -> new Step(op, pick)))
        .list()
        .ofMinSize(1)
        .ofMaxSize(25);
  }

  @Property(tries = 30)
  void everySnapshotsHistory_isTheModelsVersionsBegunByIt(@ForAll("histories") List<Step> history) {
    SlateStoreProvider provider = Stores.inMemory();
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      LakeFixture fixture = new LakeFixture(store);
      List<Version> tables = new ArrayList<>();
      List<Version> columns = new ArrayList<>();
      Map<Long, Version> liveTables = new HashMap<>();
      Map<List<Long>, Version> liveColumns = new HashMap<>();
      Map<Long, Long> nextColumn = new HashMap<>();
      for (Step step : history) {
        List<Long> ids = new ArrayList<>(liveTables.keySet());
        ids.sort(Long::compare);
        fixture.commit(
            "step",
            c -> {
              c.schemaChange();
              long n = c.n;
              if (step.op() == 0 || ids.isEmpty()) {
                long id = c.catalogId();
                Version v = new Version(List.of(id), "t" + id, n);
                c.put(new EntityKey.Table(id), TimeTravelLake.table(id, n, v.name, 1));
                tables.add(v);
                liveTables.put(id, v);
                nextColumn.put(id, 1L);
                return;
              }
              long t = ids.get(step.pick() % ids.size());
              List<List<Long>> cols =
                  liveColumns.keySet().stream()
                      .filter(k -> k.get(0) == t)
                      .sorted((a, b) -> Long.compare(a.get(1), b.get(1)))
                      .toList();
              switch (step.op()) {
                case 1 -> {
                  Version v = new Version(List.of(t), "t" + t + "@" + n, n);
                  c.put(new EntityKey.Table(t), TimeTravelLake.table(t, n, v.name, 1));
                  liveTables.put(t, v).end = n;
                  tables.add(v);
                }
                case 2 -> {
                  c.drop(new EntityKey.Table(t));
                  liveTables.remove(t).end = n;
                  for (List<Long> col : cols) {
                    c.drop(new EntityKey.Column(t, col.get(1)));
                    liveColumns.remove(col).end = n;
                  }
                }
                case 3 -> {
                  long col = nextColumn.merge(t, 1L, Long::sum) - 1;
                  Version v = new Version(List.of(t, col), "c" + col + "@" + n, n);
                  c.put(
                      new EntityKey.Column(t, col),
                      TimeTravelLake.column(t, col, n, col, v.name, "int64", null));
                  columns.add(v);
                  liveColumns.put(v.id, v);
                }
                default -> {
                  if (!cols.isEmpty()) {
                    List<Long> col = cols.get(step.pick() % cols.size());
                    c.drop(new EntityKey.Column(t, col.get(1)));
                    liveColumns.remove(col).end = n;
                  }
                }
              }
            });
      }
      long head = catalog.snapshot().snapshotId();
      assertEquals(history.size(), head);
      try (ReadOnlyCatalog fresh = Catalog.openReadOnly(store, CatalogOptions.defaults())) {
        for (long s = 0; s <= head; s++) {
          List<List<Object>> expectedTables = expected(tables, s);
          List<List<Object>> expectedColumns = expected(columns, s);
          for (CatalogSnapshot view : List.of(catalog.snapshotAt(s), fresh.snapshotAt(s))) {
            assertEquals(expectedTables, tablesOf(view), "tables at " + s);
            assertEquals(expectedColumns, columnsOf(view), "columns at " + s);
          }
        }
      }
    } finally {
      Stores.drop(provider);
    }
  }

  private static List<List<Object>> expected(List<Version> versions, long s) {
    return sorted(versions.stream().filter(v -> v.begin <= s).map(v -> v.at(s)).toList());
  }

  private static List<List<Object>> tablesOf(CatalogSnapshot view) {
    List<List<Object>> out = new ArrayList<>();
    for (Versioned<TableInfo> v : view.history().tables()) {
      TableInfo t = v.version();
      out.add(row(t.tableId(), t.name(), t.beginSnapshot(), v));
    }
    return sorted(out);
  }

  private static List<List<Object>> columnsOf(CatalogSnapshot view) {
    List<List<Object>> out = new ArrayList<>();
    for (Versioned<ColumnInfo> v : view.history().columns()) {
      ColumnInfo c = v.version();
      List<Object> r = new ArrayList<>(List.of(c.tableId()));
      r.addAll(row(c.columnId(), c.name(), c.beginSnapshot(), v));
      out.add(r);
    }
    return sorted(out);
  }

  private static List<Object> row(long id, String name, long begin, Versioned<?> v) {
    return Arrays.asList(
        id, name, begin, v.endSnapshot().isPresent() ? v.endSnapshot().getAsLong() : null);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream().sorted((a, b) -> a.toString().compareTo(b.toString())).toList();
  }
}
