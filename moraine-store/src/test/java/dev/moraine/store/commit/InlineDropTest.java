package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.TableStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dropping a table with inlined data on real SlateDB, as stock DuckLake 1.5.5 does it (DROP TABLE
 * with DATA_INLINING_ROW_LIMIT on): {@code dropped_table} only; the inlined rows, their versions,
 * the schema version's registration and the table's statistics stay, so every snapshot before the
 * drop reads the rows it read before.
 */
class InlineDropTest {

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  private static List<String> live(CatalogSnapshot s, long tableId) {
    return s.inlinedRows(tableId).rows().stream().map(r -> r.rowId() + " " + r.values()).toList();
  }

  @Test
  void droppingATable_keepsItsInlinedRowsForTimeTravel() {
    try (CommitLake lake = new CommitLake()) {
      // CREATE TABLE u (a INTEGER, s VARCHAR); INSERT (1,'x'), (2,'y'); DELETE a = 1; DROP TABLE u
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0, "u", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("s", "varchar"))));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, "y"))));
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 0));
      CatalogSnapshot beforeDrop = lake.catalog.snapshot();
      List<String> versionsBefore =
          beforeDrop.history().inlinedRows(1).stream().map(Object::toString).toList();
      lake.catalog.commit(tx -> tx.dropTable(1));

      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("dropped_table:1", head.snapshotLog().get(4).changesMade());
      assertTrue(head.table(1).isEmpty(), "the table is gone at the head");
      assertEquals(List.of("0 [1, x]", "1 [2, y]"), live(lake.catalog.snapshotAt(2), 1));
      assertEquals(List.of("1 [2, y]"), live(lake.catalog.snapshotAt(3), 1));
      assertEquals(
          versionsBefore,
          head.history().inlinedRows(1).stream().map(Object::toString).toList(),
          "the row versions stay as they were, the live one not ended by the drop");
      assertEquals(1, head.history().inlinedSchemaVersions().size(), "the registration stays");
      assertEquals(new TableStats(1, 2, 2, 0), head.tableStats(1).orElseThrow());
      assertEquals(2, head.columnStats(1).size(), "the column statistics stay");
    }
  }
}
