package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.store.ObjectStoreSpec;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The head view a landed commit leaves is built from what the commit wrote, not read back (RFC 0004
 * §4.1 step 8): the next commit reads only the head, and the view answers exactly as a catalog
 * opened afresh on the same store does, after commits of every shape the view has to carry (puts,
 * in-place overwrites, ends, renames under a loaded name index, unversioned records).
 */
class LandedHeadViewTest {
  private String name;
  private RecordingKvStore store;
  private Catalog catalog;

  @BeforeEach
  void open() {
    name = "landed-view-" + UUID.randomUUID();
    store = RecordingKvStore.inMemory(name);
    catalog = Catalog.open(store, CatalogOptions.defaults());
  }

  @AfterEach
  void close() {
    catalog.close();
    store.close();
    ObjectStoreSpec.dropInMemory(name);
  }

  @Test
  void theCommitAfterALandedOne_readsTheHeadAndNothingElse() {
    catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("v", "int64"))));
    long tableId = catalog.snapshot().tableByName(0, "t").orElseThrow().tableId();
    // The first statistics commit loads what it checks into the premise view.
    catalog.commit(tx -> statsUpdate(tx, tableId, 1));

    long before = store.entriesRead();
    catalog.commit(tx -> statsUpdate(tx, tableId, 2));
    long read = store.entriesRead() - before;

    // sys/head and the migration marker's key, read through the commit's store transaction: no
    // snapshot record, changelog or entity is read back after the previous commit.
    assertEquals(2, read, "entries read by a commit following a landed one");
    assertEquals(2, catalog.snapshot().tableStats(tableId).orElseThrow().recordCount());
  }

  @Test
  void theHeadViewAfterEachCommit_answersAsAFreshlyOpenedCatalog() {
    List<CommitBody> commits =
        List.of(
            tx -> tx.createTable(0, "a", List.of(ColumnDef.of("x", "int64"))),
            tx -> tx.createTable(0, "b", List.of(ColumnDef.of("y", "varchar"))),
            tx -> tx.addColumn(table(tx, "a"), ColumnDef.of("z", "float64")),
            tx -> tx.renameTable(table(tx, "b"), "b2"),
            tx ->
                tx.registerDataFile(table(tx, "a"), NewDataFile.parquet("f1.parquet", 10, 100, 8)),
            tx -> statsUpdate(tx, table(tx, "a"), 10),
            tx -> tx.setComment(new TagTarget.Table(table(tx, "a")), "the a table"),
            tx -> tx.setOption(OptionScope.global(), "k", "v"),
            tx -> tx.createView(0, "v", "duckdb", "SELECT 1"),
            tx -> tx.registerDataFile(table(tx, "a"), NewDataFile.parquet("f2.parquet", 5, 50, 8)),
            tx -> tx.dropTable(table(tx, "b2")),
            tx -> tx.createTable(0, "b2", List.of(ColumnDef.of("w", "int32"))));
    // Load the whole catalog into the head view, so every later head view carries full ranges
    // and name indexes forward; each check below loads the whole head view again.
    CatalogDump.allToString(catalog);
    for (CommitBody commit : commits) {
      long id = catalog.commit(commit);
      CatalogSnapshot head = catalog.snapshot();
      assertEquals(id, head.snapshotId());
      assertSame(head, catalog.snapshotAt(id), "time travel to the head serves the head view");
      try (ReadOnlyCatalog fresh = Catalog.openReadOnly(store, CatalogOptions.defaults())) {
        assertEquals(
            CatalogDump.atToString(fresh, id),
            CatalogDump.atToString(catalog, id),
            "the head view after snapshot " + id);
      }
    }
  }

  private static long table(Transaction tx, String name) {
    return tx.tableByName(0, name).orElseThrow().tableId();
  }

  private static void statsUpdate(Transaction tx, long tableId, long n) {
    tx.updateTableStats(tableId, n, 100 + n);
    tx.updateColumnStats(
        tableId,
        tx.columns(tableId).get(0).columnId(),
        Optional.of(false),
        Optional.empty(),
        Optional.of(Long.toString(n)),
        Optional.of(Long.toString(n + 1)),
        Optional.empty());
  }
}
