package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.SchemaVersionValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * Each verb's snapshot record (changes_made, counters, schema_version) is what stock DuckLake 1.5.5
 * writes for the same SQL (the values moraine-duckdb's ChangeKindScript documents: schema s1 is id
 * 1, table t1 is id 2, the table is renamed t2, and so on), its keys are RFC 0002 §12.1's, and time
 * travel shows each commit's state.
 */
class VerbRecordsTest {

  private static void assertRecord(
      CatalogSnapshot at,
      long id,
      String changes,
      long schemaVersion,
      long nextCatalogId,
      long nextFileId) {
    SnapshotInfo info = at.info();
    assertEquals(id, info.snapshotId());
    assertEquals(changes, info.changesMade(), "changes_made of snapshot " + id);
    assertEquals(schemaVersion, info.schemaVersion(), "schema_version of snapshot " + id);
    assertEquals(nextCatalogId, info.nextCatalogId(), "next_catalog_id of snapshot " + id);
    assertEquals(nextFileId, info.nextFileId(), "next_file_id of snapshot " + id);
  }

  @Test
  void theDuckLakeScript_mintsDuckLakesRecords_andTimeTravelShowsEachState() {
    try (CommitLake lake = new CommitLake()) {
      var c = lake.catalog;
      assertEquals(1, c.commit(tx -> tx.createSchema("s1")));
      assertRecord(c.snapshot(), 1, "created_schema:\"s1\"", 1, 2, 0);

      assertEquals(
          2,
          c.commit(
              tx ->
                  tx.createTable(
                      1, "t1", List.of(ColumnDef.of("a", "INT32"), ColumnDef.of("b", "varchar")))));
      assertRecord(c.snapshot(), 2, "created_table:\"s1\".\"t1\"", 2, 3, 0);
      assertEquals(List.of(2L), c.snapshot().info().schemaChangedTableIds());

      c.commit(tx -> tx.renameTable(2, "t2"));
      assertRecord(c.snapshot(), 3, "created_table:\"s1\".\"t2\"", 3, 3, 0);
      long added = lake.catalog.commit(tx -> tx.addColumn(2, ColumnDef.of("c", "int32")));
      assertEquals(4, added);
      assertRecord(c.snapshot(), 4, "altered_table:2", 4, 3, 0);
      c.commit(tx -> tx.dropColumn(2, 3));
      assertRecord(c.snapshot(), 5, "altered_table:2", 5, 3, 0);
      c.commit(tx -> tx.renameColumn(2, 2, "bb"));
      assertRecord(c.snapshot(), 6, "altered_table:2", 6, 3, 0);

      c.commit(
          tx ->
              tx.registerDataFile(
                  2,
                  NewDataFile.parquet("f0.parquet", 100, 4096, 512)
                      .withColumnStats(List.of(NewFileColumnStats.of(1, 400, 100, 0, "0", "99")))));
      assertRecord(c.snapshot(), 7, "inserted_into_table:2", 6, 3, 1);
      c.commit(tx -> tx.registerDataFile(2, NewDataFile.parquet("f1.parquet", 3, 100, 50)));
      assertRecord(c.snapshot(), 8, "inserted_into_table:2", 6, 3, 2);
      List<DataFileInfo> files = c.snapshot().dataFiles(2);
      assertEquals(0L, files.get(0).rowIdStart().getAsLong());
      assertEquals(100L, files.get(1).rowIdStart().getAsLong());
      assertEquals(103, c.snapshot().tableStats(2).orElseThrow().nextRowId());
      assertEquals(103, c.snapshot().tableStats(2).orElseThrow().recordCount());
      assertEquals(4196, c.snapshot().tableStats(2).orElseThrow().fileSizeBytes());
      assertEquals(
          Optional.of("99"), c.snapshot().fileColumnStats(2).get(0).maxValue(), "file stats kept");

      c.commit(tx -> tx.dropTable(2));
      assertRecord(c.snapshot(), 9, "dropped_table:2", 7, 3, 2);
      c.commit(tx -> tx.dropSchema(1));
      assertRecord(c.snapshot(), 10, "dropped_schema:1", 8, 3, 2);

      // Time travel: every snapshot is the state its commit left.
      assertEquals("t1", c.snapshotAt(2).table(2).orElseThrow().name());
      assertEquals("t2", c.snapshotAt(3).table(2).orElseThrow().name());
      assertEquals(List.of("a", "b", "c"), names(c.snapshotAt(4).columns(2)), "snapshot 4 has c");
      assertEquals(List.of("a", "b"), names(c.snapshotAt(5).columns(2)));
      assertEquals(List.of("a", "bb"), names(c.snapshotAt(6).columns(2)));
      assertEquals(1, c.snapshotAt(7).dataFiles(2).size());
      assertEquals(2, c.snapshotAt(8).dataFiles(2).size());
      assertTrue(c.snapshotAt(9).table(2).isEmpty());
      assertTrue(c.snapshotAt(9).schema(1).isPresent());
      assertTrue(c.snapshotAt(10).schema(1).isEmpty());
      for (long id = 1; id <= 10; id++) {
        assertEquals(id, c.snapshotAt(id).info().snapshotId());
      }
      assertEquals(new Head(10, 10), c.head());
    }
  }

  private static List<String> names(List<ColumnInfo> columns) {
    return columns.stream().map(ColumnInfo::name).toList();
  }

  @Test
  void createTable_writesCurrentRecords_aSchemaVersionRecord_andACompleteChangelog() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0,
                  "t",
                  List.of(
                      ColumnDef.of("a", "int64"),
                      ColumnDef.nested(
                          "s", "struct", ColumnDef.of("x", "int32"), ColumnDef.of("y", "varchar")),
                      ColumnDef.nested("l", "list", ColumnDef.of("element", "float64")))));
      SortedMap<String, String> all = lake.contents();
      // table 1, columns 1..6 in pre-order (a, s, s.x, s.y, l, l.element), table stats
      assertNotNull(lake.store.get(KeyCodec.encode(CurrentKey.of(new EntityKey.Table(1)))));
      for (long col = 1; col <= 6; col++) {
        assertNotNull(
            lake.store.get(KeyCodec.encode(CurrentKey.of(new EntityKey.Column(1, col)))),
            "column " + col);
      }
      assertNull(lake.store.get(KeyCodec.encode(CurrentKey.of(new EntityKey.Column(1, 7)))));
      List<ColumnInfo> columns = lake.catalog.snapshot().columns(1);
      assertEquals(List.of("a", "s", "x", "y", "l", "element"), names(columns));
      assertEquals(2L, columns.get(2).parentColumn().getAsLong());
      assertEquals("struct", columns.get(1).type());
      TableValue table =
          ValueCodec.decode(
              CurrentKey.of(new EntityKey.Table(1)),
              lake.store.get(KeyCodec.encode(CurrentKey.of(new EntityKey.Table(1)))),
              TableValue.class);
      assertEquals(7, table.getNextColumnId());
      assertEquals("t/", table.getPath());
      SchemaVersionKey sv = new SchemaVersionKey(1, 1);
      assertEquals(
          1,
          ValueCodec.decode(sv, lake.store.get(KeyCodec.encode(sv)), SchemaVersionValue.class)
              .getSchemaVersion());
      ChangelogKey logKey = new ChangelogKey(1);
      ChangelogValue log =
          ValueCodec.decode(logKey, lake.store.get(KeyCodec.encode(logKey)), ChangelogValue.class);
      // Every current key of the batch: table, 6 columns, table stats.
      assertEquals(8, log.getKeysCount());
      long currentKeys = all.keySet().stream().filter(k -> k.startsWith("0402")).count();
      // Bootstrap wrote schema 0 and the global options; this commit the eight above.
      assertEquals(10, currentKeys);
    }
  }

  @Test
  void aChangedVersion_goesToHistory_andItsSuccessorBeginsAtTheCommit() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
      lake.catalog.commit(tx -> tx.renameTable(1, "u"));
      HistoryKey ended = new HistoryKey(new EntityKey.Table(1), 2);
      TableValue old =
          ValueCodec.decode(ended, lake.store.get(KeyCodec.encode(ended)), TableValue.class);
      assertEquals("t", old.getTableName());
      assertEquals(2, old.getEndSnapshot());
      assertEquals(1, old.getBeginSnapshot());
      assertEquals(2, lake.catalog.snapshot().table(1).orElseThrow().beginSnapshot());
    }
  }

  @Test
  void options_mintNoSnapshot_advanceTheBatchSequence_andTheLastWriteWins() {
    try (CommitLake lake = new CommitLake()) {
      Head before = lake.catalog.head();
      long id = lake.catalog.commit(tx -> tx.setOption(OptionScope.global(), "k", "1"));
      assertEquals(before.snapshotId(), id);
      assertEquals(new Head(before.snapshotId(), before.batchSeq() + 1), lake.catalog.head());
      lake.catalog.commit(tx -> tx.setOption(OptionScope.global(), "k", "2"));
      assertEquals(Optional.of("2"), lake.catalog.snapshot().option(OptionScope.global(), "k"));
      lake.catalog.commit(tx -> tx.unsetOption(OptionScope.global(), "k"));
      assertEquals(Optional.empty(), lake.catalog.snapshot().option(OptionScope.global(), "k"));
      assertEquals(new Head(0, 3), lake.catalog.head());
      assertFalse(lake.contents().containsKey("030000000000000001"), "no snapshot 1");
    }
  }

  @Test
  void anEmptyClosure_writesNothing_andReturnsTheHead() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createSchema("s"));
      SortedMap<String, String> before = lake.contents();
      assertEquals(1, lake.catalog.commit(tx -> {}));
      // A create undone in the same closure stages nothing either.
      assertEquals(
          1,
          lake.catalog.commit(
              tx -> {
                tx.setOption(OptionScope.global(), "k", "v");
                tx.unsetOption(OptionScope.global(), "k");
              }));
      assertEquals(before, lake.contents());
      assertEquals(new Head(1, 1), lake.catalog.head());
    }
  }

  @Test
  void commitInfo_isRecordedInTheSnapshot() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            tx.createSchema("s");
            tx.setCommitInfo("ana", "why", "{\"x\":1}");
          });
      SnapshotInfo info = lake.catalog.snapshot().info();
      assertEquals(Optional.of("ana"), info.author());
      assertEquals(Optional.of("why"), info.commitMessage());
      assertEquals(Optional.of("{\"x\":1}"), info.commitExtraInfo());
    }
  }

  @Test
  void theHandle_seesItsOwnStagedChanges() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            long s = tx.createSchema("s");
            long t = tx.createTable(s, "t", List.of(ColumnDef.of("a", "int64")));
            assertEquals(t, tx.tableByName(s, "T").orElseThrow().tableId());
            assertTrue(tx.premise().schemaByName("s").isEmpty(), "the premise is unchanged");
            tx.registerDataFile(t, NewDataFile.parquet("x.parquet", 5, 10, 1));
            tx.registerDataFile(t, NewDataFile.parquet("y.parquet", 5, 10, 1));
            assertEquals(10, tx.tableStats(t).orElseThrow().nextRowId());
          });
      CatalogSnapshot at = lake.catalog.snapshot();
      // CREATE TABLE AS in DuckLake: created_table and inserted_into_table in one snapshot.
      assertEquals(
          "created_schema:\"s\",created_table:\"s\".\"t\",inserted_into_table:2",
          at.info().changesMade());
      assertEquals(1, at.info().schemaVersion());
      assertEquals(
          List.of(0L, 5L), at.dataFiles(2).stream().map(f -> f.rowIdStart().getAsLong()).toList());
    }
  }

  @Test
  void columnAlters_views_stats_deletesAndExpiry_mintDuckLakesRecords() {
    try (CommitLake lake = new CommitLake()) {
      var c = lake.catalog;
      c.commit(tx -> tx.createSchema("s1"));
      c.commit(
          tx ->
              tx.createTable(
                  1, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
      c.commit(tx -> tx.changeColumnType(2, 1, "int64"));
      assertRecord(c.snapshot(), 3, "altered_table:2", 3, 3, 0);
      assertEquals("int64", c.snapshot().columns(2).get(0).type());
      assertEquals("int32", c.snapshotAt(2).columns(2).get(0).type());
      c.commit(tx -> tx.setColumnDefault(2, 2, "'x'"));
      assertRecord(c.snapshot(), 4, "altered_table:2", 4, 3, 0);
      assertEquals(Optional.of("'x'"), c.snapshot().columns(2).get(1).defaultValue());
      c.commit(tx -> tx.setColumnDefault(2, 2, null));
      // Stock DuckLake's form of "no default": the literal text NULL.
      assertEquals(Optional.of("NULL"), c.snapshot().columns(2).get(1).defaultValue());
      c.commit(tx -> tx.setColumnNullable(2, 1, false));
      assertRecord(c.snapshot(), 6, "altered_table:2", 6, 3, 0);
      assertFalse(c.snapshot().columns(2).get(0).nullsAllowed());

      c.commit(tx -> tx.createView(1, "v1", "duckdb", "SELECT 1 AS x"));
      assertRecord(c.snapshot(), 7, "created_view:\"s1\".\"v1\"", 7, 4, 0);
      c.commit(tx -> tx.alterView(3, "duckdb", "SELECT 2 AS x"));
      assertRecord(c.snapshot(), 8, "altered_view:3", 8, 4, 0);
      c.commit(tx -> tx.renameView(3, "v2"));
      assertRecord(c.snapshot(), 9, "created_view:\"s1\".\"v2\"", 9, 4, 0);
      assertEquals("v1", c.snapshotAt(8).view(3).orElseThrow().name());
      assertEquals("v2", c.snapshot().view(3).orElseThrow().name());
      c.commit(tx -> tx.dropView(3));
      assertRecord(c.snapshot(), 10, "dropped_view:3", 10, 4, 0);

      c.commit(
          tx -> {
            tx.registerDataFile(2, NewDataFile.parquet("f0", 10, 100, 10));
            tx.registerDataFile(2, NewDataFile.parquet("f1", 5, 50, 10));
          });
      assertRecord(c.snapshot(), 11, "inserted_into_table:2", 10, 4, 2);
      c.commit(tx -> tx.registerDeleteFile(2, NewDeleteFile.parquet(0, "d0", 3, 20, 5)));
      assertRecord(c.snapshot(), 12, "deleted_from_table:2", 10, 4, 3);
      assertEquals(List.of(0L), c.snapshot().info().deletedDataFileIds());
      assertEquals(1, c.snapshot().deleteFiles(2).size());
      c.commit(tx -> tx.updateTableStats(2, 12, 150));
      assertRecord(c.snapshot(), 13, "", 10, 4, 3);
      assertEquals(12, c.snapshot().tableStats(2).orElseThrow().recordCount());
      assertEquals(15, c.snapshot().tableStats(2).orElseThrow().nextRowId());
      c.commit(
          tx ->
              tx.updateColumnStats(
                  2,
                  1,
                  Optional.of(false),
                  Optional.empty(),
                  Optional.of("0"),
                  Optional.of("14"),
                  Optional.empty()));
      assertRecord(c.snapshot(), 14, "", 10, 4, 3);
      assertEquals(Optional.of("14"), c.snapshot().columnStats(2, 1).orElseThrow().maxValue());
      c.commit(tx -> tx.expireDataFile(2, 0));
      assertRecord(c.snapshot(), 15, "merge_adjacent:2", 10, 4, 3);
      assertEquals(
          List.of(1L), c.snapshot().dataFiles(2).stream().map(DataFileInfo::dataFileId).toList());
      assertTrue(c.snapshot().deleteFiles(2).isEmpty(), "its delete file ends with it");
      assertEquals(2, c.snapshot().tableStats(2).orElseThrow().recordCount());
      c.commit(tx -> tx.registerDeleteFile(2, NewDeleteFile.parquet(1, "d1", 1, 20, 5)));
      long deleteFile = c.snapshot().deleteFiles(2).get(0).deleteFileId();
      c.commit(tx -> tx.expireDeleteFile(2, deleteFile));
      assertRecord(c.snapshot(), 17, "rewrite_delete:2", 10, 4, 4);
      c.commit(tx -> tx.moveTable(2, 0));
      assertRecord(c.snapshot(), 18, "created_table:\"main\".\"t\"", 11, 4, 4);
      assertEquals(0, c.snapshot().table(2).orElseThrow().schemaId());
    }
  }
}
