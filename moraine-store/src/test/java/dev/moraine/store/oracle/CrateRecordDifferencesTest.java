package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records of the verbs where our writer and the crate's verb path part ways on purpose (RFC
 * 0002 §12.1 item 4 and §16 item 8): a sort key, a view's create and alter, and tags on a table and
 * a view. The crate's side is read from the lake {@code moraine-oracle write} leaves (its workload
 * makes these calls); ours from a lake our verbs write with the same calls. For each, both sides'
 * {@code changes_made} (ids named by role), {@code schema_version} step and schema-version records
 * (the snapshot's {@code schema_changed_table_ids} and the {@code 08} keys at that snapshot) are
 * pinned, so a change on either side fails here until the RFC says what the lake does instead.
 */
class CrateRecordDifferencesTest {
  private static RustOracle oracle;

  @TempDir static Path temp;

  @BeforeAll
  static void locate() {
    oracle = RustOracle.locate();
  }

  /**
   * What one commit records of a shape change: its {@code changes_made} with the table's id written
   * {@code T} and the view's {@code V}, how far {@code schema_version} moved, and the roles ({@code
   * T}, {@code V}) of the ids it gave schema-version records.
   */
  private record Shape(String changes, long bump, List<String> recorded) {}

  /** The two objects the steps act on, by id. */
  private record Roles(long table, long view) {
    String name(long id) {
      return id == table ? "T" : id == view ? "V" : Long.toUnsignedString(id);
    }

    String changes(String changesMade) {
      return changesMade
          .replace(":" + Long.toUnsignedString(table), ":T")
          .replace(":" + Long.toUnsignedString(view), ":V");
    }
  }

  /**
   * The shape of snapshot {@code id}, checking that its snapshot record and its {@code 08} keys
   * name the same ids.
   */
  private static Shape shapeOf(ReadOnlyCatalog catalog, long id, Roles roles) {
    CatalogSnapshot at = catalog.snapshotAt(id);
    SnapshotInfo info = at.info();
    SnapshotInfo before = catalog.snapshotAt(id - 1).info();
    List<String> inRecord = new ArrayList<>();
    for (long t : info.schemaChangedTableIds()) {
      inRecord.add(roles.name(t));
    }
    List<String> inKeys = new ArrayList<>();
    for (long object : new long[] {roles.table(), roles.view()}) {
      for (SchemaVersionInfo v : at.schemaVersions(object)) {
        if (v.beginSnapshot() == id) {
          assertEquals(info.schemaVersion(), v.schemaVersion(), "08 record at snapshot " + id);
          inKeys.add(roles.name(object));
        }
      }
    }
    assertEquals(
        inRecord,
        inKeys,
        "snapshot " + id + ": schema_changed_table_ids and the 08 records name the same ids");
    return new Shape(
        roles.changes(info.changesMade()), info.schemaVersion() - before.schemaVersion(), inRecord);
  }

  /** The snapshot ids in 1..head that {@code test} accepts. */
  private static List<Long> snapshots(ReadOnlyCatalog catalog, LongPredicate test) {
    List<Long> ids = new ArrayList<>();
    for (long id = 1; id <= catalog.head().snapshotId(); id++) {
      if (test.test(id)) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static Predicate<SnapshotInfo> changes(String text) {
    return info -> info.changesMade().equals(text);
  }

  /** The steps' records in the crate's own lake, in workload order. */
  private static List<Shape> cratesShapes() throws Exception {
    Path lake = temp.resolve("crate");
    oracle.write(lake);
    try (KvReader reader = Lakes.provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      List<Long> created =
          snapshots(
              catalog,
              id ->
                  catalog
                      .snapshotAt(id)
                      .info()
                      .changesMade()
                      .equals("created_view:\"sales\".\"big_orders\""));
      assertEquals(1, created.size(), "the workload creates the view once: " + created);
      CatalogSnapshot atCreate = catalog.snapshotAt(created.get(0));
      long sales = atCreate.schemaByName("sales").orElseThrow().schemaId();
      Roles roles =
          new Roles(
              atCreate.tableByName(sales, "orders").orElseThrow().tableId(),
              atCreate.viewByName(sales, "big_orders").orElseThrow().viewId());
      List<Long> sorted =
          snapshots(
              catalog,
              id ->
                  catalog.snapshotAt(id).sorting(roles.table()).isPresent()
                      && catalog.snapshotAt(id - 1).sorting(roles.table()).isEmpty());
      assertEquals(1, sorted.size(), "the workload sorts the table once: " + sorted);
      String altered = "altered_view:" + roles.view();
      List<Long> alteredView =
          snapshots(catalog, id -> changes(altered).test(catalog.snapshotAt(id).info()));
      assertEquals(1, alteredView.size(), "the workload alters the view once: " + alteredView);
      String tagged = "altered_table:" + roles.table() + ",altered_view:" + roles.view();
      List<Long> tags =
          snapshots(catalog, id -> changes(tagged).test(catalog.snapshotAt(id).info()));
      assertEquals(2, tags.size(), "the workload's two tag commits: " + tags);
      assertTrue(
          catalog.snapshotAt(tags.get(1)).tags(roles.view()).isEmpty(),
          "the second tag commit removes the view's tag");
      List<Shape> shapes = new ArrayList<>();
      for (long id : List.of(sorted.get(0), created.get(0), alteredView.get(0))) {
        shapes.add(shapeOf(catalog, id, roles));
      }
      for (long id : tags) {
        shapes.add(shapeOf(catalog, id, roles));
      }
      return shapes;
    }
  }

  /** The same calls through our verbs, on a lake of our own, in the same order. */
  private static List<Shape> ourShapes() {
    Path lake = temp.resolve("ours");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] ids = new long[3];
      // The schema and the table in one commit: the steps below are the ones compared.
      catalog.commit(
          tx -> {
            ids[0] = tx.createSchema("sales");
            List<ColumnDef> columns =
                List.of(ColumnDef.of("id", "int64"), ColumnDef.of("customer", "varchar"));
            ids[1] = tx.createTable(ids[0], "orders", columns);
          });
      List<Long> steps = new ArrayList<>();
      steps.add(
          catalog.commit(
              tx ->
                  tx.setSortKey(
                      ids[1],
                      List.of(
                          new SortKey("id", "duckdb", "ASC", "NULLS_LAST"),
                          new SortKey("customer", "duckdb", "DESC", "NULLS_FIRST")))));
      steps.add(
          catalog.commit(
              tx ->
                  ids[2] =
                      tx.createView(
                          ids[0],
                          "big_orders",
                          "duckdb",
                          "SELECT * FROM sales.orders WHERE id > 10")));
      steps.add(
          catalog.commit(
              tx -> tx.alterView(ids[2], "duckdb", "SELECT * FROM sales.orders WHERE id > 100")));
      steps.add(
          catalog.commit(
              tx -> {
                tx.setTag(new TagTarget.Schema(ids[0]), "comment", "Sales data");
                tx.setTag(new TagTarget.Table(ids[1]), "comment", "One row per order");
                tx.setTag(new TagTarget.Table(ids[1]), "owner", "finance");
                tx.setTag(new TagTarget.View(ids[2]), "owner", "analytics");
              }));
      steps.add(
          catalog.commit(
              tx -> {
                tx.setTag(new TagTarget.Table(ids[1]), "comment", "One row per placed order");
                tx.removeTag(new TagTarget.View(ids[2]), "owner");
              }));
      Roles roles = new Roles(ids[1], ids[2]);
      List<Shape> shapes = new ArrayList<>();
      for (long id : steps) {
        shapes.add(shapeOf(catalog, id, roles));
      }
      return shapes;
    }
  }

  @Test
  void sortKeysViewsAndTags_recordWhatRfc0002Says_onBothSides() throws Exception {
    List<Shape> crate = cratesShapes();
    List<Shape> ours = ourShapes();
    String tags = "altered_table:T,altered_view:V";
    assertAll(
        // The sort key: the same kind and no record on both sides; only ours bumps, as stock does.
        () -> assertEquals(new Shape("altered_table:T", 0, List.of()), crate.get(0), "crate sort"),
        () -> assertEquals(new Shape("altered_table:T", 1, List.of()), ours.get(0), "our sort"),
        // A view's create and alter: the same kinds and bump; only the crate records the view.
        () ->
            assertEquals(
                new Shape("created_view:\"sales\".\"big_orders\"", 1, List.of("V")),
                crate.get(1),
                "crate createView"),
        () ->
            assertEquals(
                new Shape("created_view:\"sales\".\"big_orders\"", 1, List.of()),
                ours.get(1),
                "our createView"),
        () -> assertEquals(new Shape("altered_view:V", 1, List.of("V")), crate.get(2), "crate"),
        () -> assertEquals(new Shape("altered_view:V", 1, List.of()), ours.get(2), "our alterView"),
        // Tags on a table and a view: the same kinds and bump; only the crate records them.
        () -> assertEquals(new Shape(tags, 1, List.of("T", "V")), crate.get(3), "crate set tags"),
        () -> assertEquals(new Shape(tags, 1, List.of()), ours.get(3), "our set tags"),
        () -> assertEquals(new Shape(tags, 1, List.of("T", "V")), crate.get(4), "crate re-tag"),
        () -> assertEquals(new Shape(tags, 1, List.of()), ours.get(4), "our re-tag"));
  }
}
