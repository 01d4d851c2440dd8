package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.TableInfo;
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
 * Random verb sequences, each step its own commit, checked after every commit against a simple
 * model of the catalog (tables by id with their name, columns and files' row ranges), and at the
 * end at every snapshot by time travel. A step the model says must fail (a name taken, a table
 * gone, a last column) must fail with the verb's typed error and mint nothing.
 */
class VerbModelPropertiesTest {
  /** 0 create, 1 rename, 2 drop table, 3 add column, 4 drop column, 5 register file. */
  record Step(int op, int pick, int arg) {}

  /** A table as the model sees it. */
  record ModelTable(String name, Map<Long, String> columns, List<long[]> files, long nextColumn) {}

  @Provide
  Arbitrary<List<Step>> histories() {
    return Arbitraries.integers()
        .between(0, 5)
        .flatMap(
            op ->
                Arbitraries.integers()
                    .between(0, 40)
                    .flatMap(
                        pick ->
                            Arbitraries.integers()
                                .between(0, 6)
                                .map(arg -> new Step(op, pick, arg))))
        .list()
        .ofMinSize(1)
        .ofMaxSize(20);
  }

  @Property(tries = 25)
  void everyCommitAndEverySnapshot_readAsTheModelSays(@ForAll("histories") List<Step> history) {
    try (CommitLake lake = new CommitLake()) {
      Catalog c = lake.catalog;
      Map<Long, ModelTable> live = new TreeMap<>();
      List<Map<Long, ModelTable>> bySnapshot = new ArrayList<>();
      bySnapshot.add(Map.copyOf(live));
      long[] nextCatalogId = {1};
      long[] nextRow = new long[64];
      for (Step step : history) {
        List<Long> ids = new ArrayList<>(live.keySet());
        long headBefore = c.head().snapshotId();
        Long table = ids.isEmpty() ? null : ids.get(step.pick() % ids.size());
        String name = "t" + (step.arg() % 4);
        boolean nameTaken = live.values().stream().anyMatch(t -> t.name().equalsIgnoreCase(name));
        switch (step.op()) {
          case 0 -> {
            if (nameTaken) {
              expectRefused(c, AlreadyExistsException.class, () -> create(c, name));
            } else {
              create(c, name);
              long id = nextCatalogId[0]++;
              Map<Long, String> cols = new TreeMap<>();
              cols.put(1L, "a");
              live.put(id, new ModelTable(name, cols, new ArrayList<>(), 2));
            }
          }
          case 1 -> {
            if (table == null) {
              expectRefused(
                  c, NotFoundException.class, () -> c.commit(tx -> tx.renameTable(99, name)));
            } else if (live.get(table).name().equals(name)) {
              expectRefused(
                  c,
                  InvalidArgumentException.class,
                  () -> c.commit(tx -> tx.renameTable(table, name)));
            } else if (live.entrySet().stream()
                .anyMatch(
                    e -> !e.getKey().equals(table) && e.getValue().name().equalsIgnoreCase(name))) {
              expectRefused(
                  c,
                  AlreadyExistsException.class,
                  () -> c.commit(tx -> tx.renameTable(table, name)));
            } else {
              c.commit(tx -> tx.renameTable(table, name));
              ModelTable t = live.get(table);
              live.put(table, new ModelTable(name, t.columns(), t.files(), t.nextColumn()));
            }
          }
          case 2 -> {
            if (table == null) {
              expectRefused(c, NotFoundException.class, () -> c.commit(tx -> tx.dropTable(7)));
            } else {
              c.commit(tx -> tx.dropTable(table));
              live.remove(table);
            }
          }
          case 3 -> {
            if (table != null) {
              String col = "c" + step.arg();
              ModelTable t = live.get(table);
              if (t.columns().containsValue(col)) {
                expectRefused(
                    c,
                    AlreadyExistsException.class,
                    () -> c.commit(tx -> tx.addColumn(table, ColumnDef.of(col, "int32"))));
              } else {
                c.commit(tx -> tx.addColumn(table, ColumnDef.of(col, "int32")));
                Map<Long, String> cols = new TreeMap<>(t.columns());
                cols.put(t.nextColumn(), col);
                live.put(table, new ModelTable(t.name(), cols, t.files(), t.nextColumn() + 1));
              }
            }
          }
          case 4 -> {
            if (table != null) {
              ModelTable t = live.get(table);
              List<Long> cols = new ArrayList<>(t.columns().keySet());
              long col = cols.get(step.arg() % cols.size());
              if (cols.size() == 1) {
                expectRefused(
                    c,
                    InvalidArgumentException.class,
                    () -> c.commit(tx -> tx.dropColumn(table, col)));
              } else {
                c.commit(tx -> tx.dropColumn(table, col));
                Map<Long, String> left = new TreeMap<>(t.columns());
                left.remove(col);
                live.put(table, new ModelTable(t.name(), left, t.files(), t.nextColumn()));
              }
            }
          }
          default -> {
            if (table != null) {
              long rows = step.arg() * 3L;
              c.commit(tx -> tx.registerDataFile(table, NewDataFile.parquet("f", rows, 100, 10)));
              ModelTable t = live.get(table);
              List<long[]> files = new ArrayList<>(t.files());
              files.add(new long[] {nextRow[(int) (long) table], rows});
              nextRow[(int) (long) table] += rows;
              live.put(table, new ModelTable(t.name(), t.columns(), files, t.nextColumn()));
            }
          }
        }
        if (c.head().snapshotId() != headBefore) {
          bySnapshot.add(Map.copyOf(live));
        }
        assertEquals(bySnapshot.size() - 1, c.head().snapshotId());
        assertMatches(live, c.snapshot());
      }
      for (int id = 0; id < bySnapshot.size(); id++) {
        assertMatches(bySnapshot.get(id), c.snapshotAt(id));
      }
    }
  }

  private static void create(Catalog c, String name) {
    c.commit(tx -> tx.createTable(0, name, List.of(ColumnDef.of("a", "int64"))));
  }

  private static void expectRefused(
      Catalog c, Class<? extends RuntimeException> type, Runnable commit) {
    long before = c.head().snapshotId();
    long batch = c.head().batchSeq();
    try {
      commit.run();
    } catch (RuntimeException e) {
      assertEquals(type, e.getClass(), e.toString());
      assertEquals(before, c.head().snapshotId());
      assertEquals(batch, c.head().batchSeq());
      return;
    }
    throw new AssertionError("expected " + type.getSimpleName());
  }

  private static void assertMatches(Map<Long, ModelTable> model, CatalogSnapshot at) {
    List<TableInfo> tables = at.tables();
    assertEquals(
        model.keySet(),
        new java.util.TreeSet<>(tables.stream().map(TableInfo::tableId).toList()),
        "tables at " + at.snapshotId());
    for (TableInfo t : tables) {
      ModelTable m = model.get(t.tableId());
      assertEquals(m.name(), t.name());
      Map<Long, String> columns = new TreeMap<>();
      for (ColumnInfo col : at.columns(t.tableId())) {
        columns.put(col.columnId(), col.name());
      }
      assertEquals(m.columns(), columns, "columns of " + t.tableId() + " at " + at.snapshotId());
      List<DataFileInfo> files = at.dataFiles(t.tableId());
      assertEquals(m.files().size(), files.size());
      for (int i = 0; i < files.size(); i++) {
        assertEquals(m.files().get(i)[0], files.get(i).rowIdStart().getAsLong());
        assertEquals(m.files().get(i)[1], files.get(i).recordCount());
      }
    }
  }
}
