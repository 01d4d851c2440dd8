package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.TableInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Names resolved through the name index give the answers a walk of the catalog gave: inside a
 * closure (the overlay over the premise's index) and across head views (the index carried through
 * the changelogs of the commits in between).
 */
class NameResolutionTest {
  private static final List<ColumnDef> ONE = List.of(ColumnDef.of("v", "int64"));

  @Test
  void theOverlayFollowsCreatesRenamesMovesAndDropsWithinOneClosure() {
    try (CommitLake lake = new CommitLake()) {
      long[] ids = new long[3];
      lake.catalog.commit(
          tx -> {
            ids[0] = tx.createSchema("other");
            ids[1] = tx.createTable(0, "Orders", ONE);
            ids[2] = tx.createTable(0, "items", ONE);
          });
      lake.catalog.snapshot().tableByName(0, "Orders").orElseThrow(); // builds the index
      lake.catalog.commit(
          tx -> {
            assertThrows(AlreadyExistsException.class, () -> tx.createTable(0, "ORDERS", ONE));
            assertThrows(AlreadyExistsException.class, () -> tx.createView(0, "orders", "d", "s"));
            assertThrows(AlreadyExistsException.class, () -> tx.createSchema("OTHER"));
            tx.renameTable(ids[1], "sales");
            assertTrue(tx.tableByName(0, "orders").isEmpty());
            assertEquals(ids[1], tx.tableByName(0, "SALES").orElseThrow().tableId());
            long again = tx.createTable(0, "orders", ONE); // the old name is free again
            assertEquals(again, tx.tableByName(0, "Orders").orElseThrow().tableId());
            tx.moveTable(ids[2], ids[0]);
            assertTrue(tx.tableByName(0, "items").isEmpty());
            assertEquals(ids[2], tx.tableByName(ids[0], "ITEMS").orElseThrow().tableId());
            tx.createTable(0, "items", ONE);
            tx.dropTable(again);
            tx.createView(0, "orders", "duckdb", "select 1");
          });
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(ids[1], head.tableByName(0, "sales").orElseThrow().tableId());
      assertTrue(head.tableByName(0, "orders").isEmpty());
      assertTrue(head.tableByName(0, "Sales").isEmpty(), "the snapshot's lookup is exact-case");
      assertTrue(head.viewByName(0, "orders").isPresent());
      assertEquals(ids[2], head.tableByName(ids[0], "items").orElseThrow().tableId());
      assertTrue(head.tableByName(0, "items").isPresent());
    }
  }

  @Test
  void aSchemaIsEmptyOnceItsTablesHaveMovedOutInTheSameClosure() {
    try (CommitLake lake = new CommitLake()) {
      long[] ids = new long[2];
      lake.catalog.commit(
          tx -> {
            ids[0] = tx.createSchema("s");
            ids[1] = tx.createTable(ids[0], "t", ONE);
          });
      lake.catalog.commit(
          tx -> {
            assertThrows(InvalidArgumentException.class, () -> tx.dropSchema(ids[0]));
            tx.moveTable(ids[1], 0);
            tx.dropSchema(ids[0]);
          });
      CatalogSnapshot head = lake.catalog.snapshot();
      assertTrue(head.schemaByName("s").isEmpty());
      assertEquals(ids[1], head.tableByName(0, "t").orElseThrow().tableId());
      lake.catalog.commit(
          tx -> {
            long s = tx.createSchema("S");
            tx.createTable(s, "u", ONE);
            assertThrows(InvalidArgumentException.class, () -> tx.dropSchema(s));
          });
    }
  }

  @Test
  void theIndexIsCarriedToLaterHeadViewsAndFollowsTheirCommits() {
    try (CommitLake lake = new CommitLake()) {
      long[] ids = new long[2];
      lake.catalog.commit(
          tx -> {
            ids[0] = tx.createTable(0, "a", ONE);
            ids[1] = tx.createTable(0, "b", ONE);
          });
      CatalogSnapshot first = lake.catalog.snapshot();
      assertTrue(first.tableByName(0, "a").isPresent()); // the index exists from here on
      lake.catalog.commit(tx -> tx.renameTable(ids[0], "c"));
      lake.catalog.commit(tx -> tx.dropTable(ids[1]));
      lake.catalog.commit(tx -> tx.createTable(0, "b", ONE));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertTrue(head.tableByName(0, "a").isEmpty());
      assertEquals(ids[0], head.tableByName(0, "c").orElseThrow().tableId());
      TableInfo b = head.tableByName(0, "b").orElseThrow();
      assertTrue(Long.compareUnsigned(b.tableId(), ids[1]) > 0, "b is the re-created table");
      // The first view still answers for its snapshot.
      assertEquals(ids[0], first.tableByName(0, "a").orElseThrow().tableId());
      assertEquals(ids[1], first.tableByName(0, "b").orElseThrow().tableId());
      // A closure on the carried head refuses the names it holds and accepts the freed one.
      lake.catalog.commit(
          tx -> {
            assertThrows(AlreadyExistsException.class, () -> tx.createTable(0, "C", ONE));
            assertThrows(AlreadyExistsException.class, () -> tx.renameTable(ids[0], "B"));
            tx.createTable(0, "a", ONE);
          });
      assertTrue(lake.catalog.snapshot().tableByName(0, "a").isPresent());
    }
  }
}
