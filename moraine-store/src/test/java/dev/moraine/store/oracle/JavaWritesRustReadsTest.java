package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.Concurrently;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lakes written through our verbs are the crate's lakes: {@code moraine-oracle check} opens them
 * (the crate validates the format, the head and every record it reads) and its dump equals {@link
 * dev.moraine.core.dump.CatalogDump}'s, whole and at every snapshot id.
 */
class JavaWritesRustReadsTest {
  private static RustOracle oracle;

  @TempDir static Path temp;

  @BeforeAll
  static void locate() {
    oracle = RustOracle.locate();
  }

  @Test
  void everyVerb_writesWhatTheCrateReads_atEverySnapshot() throws Exception {
    Path lake = temp.resolve("verbs");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] ids = new long[4];
      catalog.commit(tx -> ids[0] = tx.createSchema("sales"));
      catalog.commit(
          tx ->
              ids[1] =
                  tx.createTable(
                      ids[0],
                      "orders",
                      List.of(
                          ColumnDef.of("id", "int64").notNull(),
                          ColumnDef.of("amount", "decimal(18,3)").withDefault("0"),
                          ColumnDef.nested(
                              "addr",
                              "struct",
                              ColumnDef.of("city", "varchar"),
                              ColumnDef.nested("tags", "list", ColumnDef.of("element", "varchar"))),
                          ColumnDef.nested(
                              "attrs",
                              "map",
                              ColumnDef.of("key", "varchar"),
                              ColumnDef.of("value", "int32")))));
      catalog.commit(
          tx -> {
            tx.registerDataFile(
                ids[1],
                NewDataFile.parquet("a.parquet", 3, 1024, 200)
                    .withColumnStats(
                        List.of(
                            NewFileColumnStats.of(1, 40, 3, 0, "1", "3"),
                            NewFileColumnStats.of(2, 60, 3, 1, "0.500", "9.250"))));
            tx.registerDataFile(ids[1], NewDataFile.parquet("b.parquet", 5, 2048, 300));
            tx.setCommitInfo("ana", "first load", "{\"job\":7}");
          });
      catalog.commit(tx -> tx.renameTable(ids[1], "orders_v2"));
      catalog.commit(tx -> ids[2] = tx.addColumn(ids[1], ColumnDef.of("note", "varchar")));
      catalog.commit(tx -> tx.renameColumn(ids[1], ids[2], "remark"));
      catalog.commit(tx -> tx.dropColumn(ids[1], 2));
      catalog.commit(
          tx -> {
            tx.setOption(OptionScope.global(), "data_inlining_row_limit", "10");
            tx.setOption(new OptionScope.Table(ids[1]), "target_file_size", "1MB");
          });
      catalog.commit(
          tx -> {
            ids[3] = tx.createTable(0, "scratch", List.of(ColumnDef.of("x", "int32")));
            tx.registerDataFile(ids[3], NewDataFile.parquet("s.parquet", 7, 512, 100));
          });
      catalog.commit(tx -> tx.unsetOption(OptionScope.global(), "data_inlining_row_limit"));
      catalog.commit(tx -> tx.dropTable(ids[3]));
      catalog.commit(
          tx -> {
            tx.changeColumnType(ids[1], 1, "int128");
            tx.setColumnDefault(ids[1], 5, "'?'");
            tx.setColumnNullable(ids[1], 1, true);
          });
      catalog.commit(
          tx -> {
            long v = tx.createView(ids[0], "big_orders", "duckdb", "SELECT * FROM orders_v2");
            tx.alterView(v, "duckdb", "SELECT id FROM orders_v2");
          });
      catalog.commit(
          tx ->
              tx.renameView(
                  tx.premise().viewByName(ids[0], "big_orders").orElseThrow().viewId(),
                  "large_orders"));
      catalog.commit(
          tx -> {
            tx.registerDeleteFile(ids[1], NewDeleteFile.parquet(0, "del-a.parquet", 1, 64, 16));
            tx.updateTableStats(ids[1], 7, 3000);
            tx.updateColumnStats(
                ids[1],
                1,
                Optional.of(false),
                Optional.empty(),
                Optional.of("1"),
                Optional.of("8"),
                Optional.empty());
          });
      catalog.commit(tx -> tx.expireDataFile(ids[1], 1));
      catalog.commit(tx -> tx.expireDeleteFile(ids[1], 3));
      catalog.commit(
          tx ->
              tx.dropView(tx.premise().viewByName(ids[0], "large_orders").orElseThrow().viewId()));
      catalog.commit(tx -> tx.moveTable(ids[1], 0));
      long empty = catalog.commit(tx -> tx.createSchema("tmp"));
      catalog.commit(tx -> tx.dropSchema(tx.schemaByName("tmp").orElseThrow().schemaId()));
      assertEquals(18, empty);
      // Partition and sort keys: set, a file under the spec, replace, reset; and both set on a
      // table created in the same commit.
      catalog.commit(
          tx ->
              tx.setPartitionKey(
                  ids[1], List.of(PartitionKey.identity(1), new PartitionKey(10, "identity"))));
      catalog.commit(
          tx ->
              tx.registerDataFile(
                  ids[1],
                  NewDataFile.parquet("p.parquet", 2, 700, 90)
                      .withPartitionValues(List.of("7", "x"))));
      // Two transforms of one column, as stock DuckLake allows (year(ts), month(ts)).
      catalog.commit(
          tx ->
              tx.setPartitionKey(
                  ids[1],
                  List.of(new PartitionKey(1, "bucket(4)"), new PartitionKey(1, "identity"))));
      catalog.commit(
          tx -> tx.setSortKey(ids[1], List.of(new SortKey("id", "duckdb", "DESC", "NULLS_FIRST"))));
      catalog.commit(tx -> tx.resetSortKey(ids[1]));
      catalog.commit(tx -> tx.resetPartitionKey(ids[1]));
      long layout =
          catalog.commit(
              tx -> {
                long t = tx.createTable(0, "laid_out", List.of(ColumnDef.of("k", "int32")));
                tx.setPartitionKey(t, List.of(new PartitionKey(1, "identity")));
                tx.setSortKey(t, List.of(new SortKey("k", "duckdb", "ASC", "NULLS_LAST")));
              });
      assertEquals(26, layout);
      // Macros: scalar (two implementations, a default) and table, then both dropped.
      long[] macro = new long[2];
      catalog.commit(
          tx ->
              macro[0] =
                  tx.createMacro(
                      ids[0],
                      "plus",
                      new NewMacro(
                          List.of(
                              NewMacro.Implementation.scalar(
                                  "x + 1", NewMacro.Parameter.of("x", "unknown")),
                              new NewMacro.Implementation(
                                  "duckdb",
                                  "x + y",
                                  NewMacro.SCALAR,
                                  List.of(
                                      NewMacro.Parameter.of("x", "unknown"),
                                      new NewMacro.Parameter(
                                          "y", "unknown", Optional.of("2"), "INTEGER")))))));
      catalog.commit(
          tx ->
              macro[1] =
                  tx.createMacro(
                      ids[0], "plus", NewMacro.of(NewMacro.Implementation.table("SELECT 1 AS y"))));
      catalog.commit(tx -> tx.dropMacro(macro[0]));
      long lastMacro = catalog.commit(tx -> tx.dropMacro(macro[1]));
      assertEquals(30, lastMacro);
      // Comments and tags: on a table, a nested column, a view; replaced, then removed.
      long[] view = new long[1];
      catalog.commit(
          tx -> {
            view[0] = tx.createView(0, "tagged", "duckdb", "SELECT 1 AS x");
            tx.setComment(new TagTarget.View(view[0]), "new view");
          });
      catalog.commit(tx -> tx.setComment(new TagTarget.Table(ids[1]), "the orders"));
      catalog.commit(
          tx -> {
            tx.setComment(new TagTarget.Column(ids[1], 4), "a city");
            tx.setTag(new TagTarget.Column(ids[1], 4), "pii", "no");
          });
      catalog.commit(tx -> tx.setComment(new TagTarget.View(view[0]), "a view"));
      catalog.commit(tx -> tx.setComment(new TagTarget.Table(ids[1]), "all orders"));
      catalog.commit(
          tx -> {
            tx.removeTag(new TagTarget.Column(ids[1], 4), "pii");
            tx.removeTag(new TagTarget.Table(ids[1]), "comment");
          });
      long lastTag = catalog.commit(tx -> tx.renameColumn(ids[1], 4, "town"));
      assertEquals(37, lastTag);
      // A file mapped by name (a mapping, then the file): some columns missing, one field spelled
      // in another case, nested fields mapped under their parents.
      long mapped =
          catalog.commit(
              tx ->
                  tx.registerDataFileByName(
                      ids[1],
                      NewDataFile.parquet("outside.parquet", 4, 900, 120),
                      List.of(
                          FileField.of("ID"),
                          FileField.nested(
                              "addr",
                              FileField.of("town"),
                              FileField.nested("tags", FileField.of("element")))),
                      true));
      assertEquals(38, mapped);
      // Schema tags, as the crate stores them (stock DuckLake has no schema comments).
      catalog.commit(
          tx -> {
            tx.setComment(new TagTarget.Schema(ids[0]), "sales data");
            tx.setTag(new TagTarget.Schema(0), "owner", "ops");
          });
      long schemaTags = catalog.commit(tx -> tx.removeTag(new TagTarget.Schema(0), "owner"));
      assertEquals(40, schemaTags);
    }
    assertSameAtEverySnapshot(lake, 40);
  }

  @Test
  void mergedDataFiles_areReadByTheCrateAsOurs_atEverySnapshot() throws Exception {
    Path lake = temp.resolve("merged");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(tx -> tx.createTable(0, "events", List.of(ColumnDef.of("v", "int64"))));
      long table = catalog.snapshot().tableByName(0, "events").orElseThrow().tableId();
      for (int i = 0; i < 4; i++) {
        int n = i;
        catalog.commit(
            tx ->
                tx.registerDataFile(
                    table,
                    NewDataFile.parquet("e" + n + ".parquet", 10, 100, 10)
                        .withColumnStats(List.of(NewFileColumnStats.of(1, 40, 10, 0, "0", "9")))));
      }
      catalog.commit(
          tx -> tx.registerDeleteFile(table, NewDeleteFile.parquet(3, "d.parquet", 1, 20, 5)));
      catalog.commit(tx -> tx.expireDeleteFile(table, 4));
      // A contiguous run (files 0 and 1, rows 0..19), then a run with a gap (the merged file and
      // file 3, rows 30..39, whose ended delete file goes with it).
      catalog.commit(
          tx ->
              tx.mergeDataFiles(
                  table, List.of(0L, 1L), NewDataFile.parquet("m0.parquet", 20, 150, 10)));
      catalog.commit(tx -> tx.expireDataFile(table, 2));
      catalog.commit(
          tx ->
              tx.mergeDataFiles(
                  table, List.of(5L, 3L), NewDataFile.parquet("m1.parquet", 30, 200, 10)));
      assertEquals(10, catalog.head().snapshotId());
      assertEquals(1, catalog.snapshot().dataFiles(table).size());
    }
    assertSameAtEverySnapshot(lake, 10);
  }

  /**
   * Rewritten data files: one with a delete file and one with rows deleted inline, each ended at
   * its rewrite with its deletions, the outputs carrying their rows' ids; then statistics counted
   * afresh. The crate reads every snapshot as we do.
   */
  @Test
  void rewrittenDataFiles_areReadByTheCrateAsOurs_atEverySnapshot() throws Exception {
    Path lake = temp.resolve("rewritten");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(tx -> tx.createTable(0, "events", List.of(ColumnDef.of("v", "int64"))));
      long table = catalog.snapshot().tableByName(0, "events").orElseThrow().tableId();
      for (int i = 0; i < 3; i++) {
        int n = i;
        catalog.commit(
            tx ->
                tx.registerDataFile(
                    table,
                    NewDataFile.parquet("e" + n + ".parquet", 10, 100, 10)
                        .withColumnStats(
                            List.of(
                                NewFileColumnStats.of(
                                    1, 40, 10, 0, String.valueOf(10 * n), 10 * n + 9 + "")))));
      }
      catalog.commit(
          tx -> tx.registerDeleteFile(table, NewDeleteFile.parquet(0, "d.parquet", 4, 20, 5)));
      catalog.commit(
          tx -> {
            tx.deleteRowInline(table, 10);
            tx.deleteRowInline(table, 11);
          });
      catalog.commit(
          tx ->
              tx.rewriteDataFiles(
                  table,
                  List.of(0L),
                  NewDataFile.parquet("r0.parquet", 6, 80, 10)
                      .withColumnStats(List.of(NewFileColumnStats.of(1, 30, 6, 0, "4", "9")))));
      catalog.commit(
          tx ->
              tx.rewriteDataFiles(
                  table,
                  List.of(1L),
                  NewDataFile.parquet("r1.parquet", 8, 90, 10)
                      .withColumnStats(List.of(NewFileColumnStats.of(1, 30, 8, 0, "12", "19")))));
      assertEquals(8, catalog.head().snapshotId());
      assertEquals(24, catalog.snapshot().tableStats(table).orElseThrow().recordCount());
    }
    assertSameAtEverySnapshot(lake, 8);
  }

  /**
   * A lake after an expiry (a dropped table's records removed, an expired file's record removed and
   * scheduled, snapshot records gone): the crate reads it as we do, at the head and at every
   * retained snapshot.
   */
  @Test
  void anExpiredLake_isReadByTheCrateAsOurs_atEveryRetainedSnapshot() throws Exception {
    Path lake = temp.resolve("expired");
    List<Long> retained;
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long table =
          catalog
              .commitReturning(
                  tx -> tx.createTable(0, "events", List.of(ColumnDef.of("v", "int64"))))
              .value();
      for (int i = 0; i < 3; i++) {
        int n = i;
        catalog.commit(
            tx ->
                tx.registerDataFile(table, NewDataFile.parquet("e" + n + ".parquet", 10, 100, 10)));
      }
      long gone =
          catalog
              .commitReturning(tx -> tx.createTable(0, "gone", List.of(ColumnDef.of("x", "int32"))))
              .value();
      catalog.commit(tx -> tx.registerDataFile(gone, NewDataFile.parquet("g.parquet", 5, 50, 5)));
      catalog.commit(tx -> tx.dropTable(gone));
      catalog.commit(tx -> tx.expireDataFile(table, 1));
      catalog.commit(tx -> tx.renameTable(table, "events2"));
      long head = catalog.head().snapshotId();
      catalog.expireSnapshots(SnapshotExpiry.ids(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L)));
      retained = catalog.snapshot().snapshotLog().stream().map(s -> s.snapshotId()).toList();
      assertEquals(List.of(0L, head - 1, head), retained);
    }
    String rust = oracle.check(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    for (long id : retained) {
      JsonTrees.assertSameTree(
          "moraine-oracle dump --at " + id,
          oracle.dumpAt(lake, id),
          "CatalogDump at " + id,
          Lakes.javaDump(lake, id));
    }
  }

  @Test
  void eightConcurrentCommitters_writeALakeTheCrateReadsTheSame() throws Exception {
    Path lake = temp.resolve("concurrent");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long shared =
          catalog.commit(tx -> tx.createTable(0, "events", List.of(ColumnDef.of("v", "int64"))));
      long sharedTable = catalog.snapshot().tableByName(0, "events").orElseThrow().tableId();
      assertEquals(1, shared);
      Concurrently.run(
          8,
          thread -> {
            for (int i = 0; i < 4; i++) {
              int n = i;
              catalog.commit(
                  tx ->
                      tx.registerDataFile(
                          sharedTable,
                          NewDataFile.parquet(
                              "t" + thread + "-" + n + ".parquet", 10 + thread, 100, 10)));
            }
            catalog.commit(
                tx -> tx.createTable(0, "own_" + thread, List.of(ColumnDef.of("x", "int32"))));
          });
      assertEquals(1 + 8 * 5, catalog.head().snapshotId());
    }
    assertSameAtEverySnapshot(lake, 41);
  }

  @Test
  void oneBatchOfMembers_writesALakeTheCrateReadsTheSame_memberByMember() throws Exception {
    Path lake = temp.resolve("grouped");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long before = catalog.head().snapshotId();
      CommitStatistics start = catalog.commitStatistics();
      long[] ids = new long[3];
      // Ten members of one batch, each staging against what the members before it left: a
      // schema and a table named by later members, ids, row ids and file ordinals handed on.
      List<Long> snapshots =
          catalog.commitGroup(
              List.of(
                  tx -> ids[0] = tx.createSchema("batch"),
                  tx ->
                      ids[1] =
                          tx.createTable(
                              tx.premise().schemaByName("batch").orElseThrow().schemaId(),
                              "events",
                              List.of(ColumnDef.of("id", "int64"), ColumnDef.of("tag", "varchar"))),
                  tx -> tx.registerDataFile(ids[1], NewDataFile.parquet("e1.parquet", 4, 800, 200)),
                  tx -> tx.setOption(OptionScope.global(), "data_inlining_row_limit", "50"),
                  tx -> tx.insertInlined(ids[1], List.of(List.of(1L, "a"), List.of(2L, "b"))),
                  tx -> tx.registerDataFile(ids[1], NewDataFile.parquet("e2.parquet", 3, 700, 150)),
                  tx -> tx.deleteRowInline(ids[1], 5),
                  tx -> ids[2] = tx.addColumn(ids[1], ColumnDef.of("n", "int32")),
                  tx -> tx.renameTable(ids[1], "events_v2"),
                  tx ->
                      tx.registerDeleteFile(
                          ids[1], NewDeleteFile.parquet(0, "e1-delete.parquet", 1, 64, 16))));
      // The options-only member mints no snapshot (an option is not versioned): it answers the
      // snapshot the member before it left, as a lone options-only commit answers the head.
      List<Long> expected = new ArrayList<>();
      for (long i : new long[] {1, 2, 3, 3, 4, 5, 6, 7, 8, 9}) {
        expected.add(before + i);
      }
      assertEquals(expected, snapshots);
      CommitStatistics end = catalog.commitStatistics();
      assertEquals(10, end.commitsLanded() - start.commitsLanded());
      assertEquals(1, end.walFlushes() - start.walFlushes(), "the batch is one log flush");
    }
    assertSameAtEverySnapshot(lake, 9);
  }

  private static void assertSameAtEverySnapshot(Path lake, long expectedHead) throws Exception {
    String rust = oracle.check(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode dump = JsonTrees.parse(rust);
    assertEquals(expectedHead, dump.get("head").asLong());
    for (long id = 0; id <= expectedHead; id++) {
      String rustAt = oracle.dumpAt(lake, id);
      String javaAt = Lakes.javaDump(lake, id);
      JsonTrees.assertSameTree(
          "moraine-oracle dump --at " + id, rustAt, "CatalogDump at " + id, javaAt);
    }
  }
}
