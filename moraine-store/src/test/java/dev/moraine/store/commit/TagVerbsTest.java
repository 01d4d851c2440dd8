package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.TagTarget;
import java.util.List;
import java.util.OptionalLong;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * Comments and tags on tables, columns and views: the records stock DuckLake 1.5.5 mints for
 * COMMENT ON (ChangeKindScript's texts), the tag entries the keyspace keeps with their snapshot
 * ranges, a column's record overwritten in place, and typed refusals that leave the store
 * unchanged.
 */
class TagVerbsTest {

  private static void assertRecord(CatalogSnapshot at, String changes, long schemaVersion) {
    SnapshotInfo info = at.info();
    assertEquals(changes, info.changesMade(), "changes_made of " + info.snapshotId());
    assertEquals(schemaVersion, info.schemaVersion(), "schema_version of " + info.snapshotId());
    assertEquals(
        List.of(), info.schemaChangedTableIds(), "a comment writes no schema_versions row");
  }

  private static TagEntry live(long begin, String key, String value) {
    return new TagEntry(begin, OptionalLong.empty(), key, value);
  }

  /** Schema s1 (1), table t1 (2) with columns a (1) and b (2), at snapshot 2. */
  private static CommitLake lakeWithTable() {
    CommitLake lake = new CommitLake();
    lake.catalog.commit(tx -> tx.createSchema("s1"));
    lake.catalog.commit(
        tx ->
            tx.createTable(
                1, "t1", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    return lake;
  }

  @Test
  void comments_mintDuckLakesRecords_andTagsKeepTheirRanges() {
    try (CommitLake lake = lakeWithTable()) {
      var c = lake.catalog;
      c.commit(tx -> tx.setComment(new TagTarget.Table(2), "a table"));
      assertRecord(c.snapshot(), "altered_table:2", 3);
      c.commit(tx -> tx.setComment(new TagTarget.Column(2, 1), "a column"));
      assertRecord(c.snapshot(), "altered_table:2", 4);
      c.commit(tx -> tx.createView(1, "v1", "duckdb", "SELECT 1 AS x"));
      c.commit(tx -> tx.setComment(new TagTarget.View(3), "a view"));
      assertRecord(c.snapshot(), "altered_view:3", 6);
      c.commit(tx -> tx.setTag(new TagTarget.Table(2), "comment", "changed"));
      c.commit(tx -> tx.removeTag(new TagTarget.Table(2), "comment"));
      assertRecord(c.snapshot(), "altered_table:2", 8);

      assertEquals(List.of(), c.snapshotAt(2).tags(2));
      assertEquals(List.of(live(3, "comment", "a table")), c.snapshotAt(3).tags(2));
      // The entry ended at 7 is live, as of snapshot 6, with no end (RFC 0003's time travel).
      assertEquals(List.of(live(3, "comment", "a table")), c.snapshotAt(6).tags(2));
      assertEquals(List.of(live(7, "comment", "changed")), c.snapshotAt(7).tags(2));
      assertEquals(List.of(), c.snapshotAt(8).tags(2));
      assertEquals(List.of(live(6, "comment", "a view")), c.snapshotAt(6).tags(3));

      ColumnInfo a = c.snapshotAt(4).columns(2).get(0);
      assertEquals(List.of(live(4, "comment", "a column")), a.tags());
      assertEquals(2, a.beginSnapshot(), "a tag change overwrites the column in place");
      assertEquals(List.of(), c.snapshotAt(3).columns(2).get(0).tags());
    }
  }

  @Test
  void aColumnTagChange_writesNoHistoryKey() {
    try (CommitLake lake = lakeWithTable()) {
      SortedMap<String, String> before = lake.contents();
      lake.catalog.commit(tx -> tx.setTag(new TagTarget.Column(2, 2), "pii", "no"));
      SortedMap<String, String> after = lake.contents();
      long historyBefore = before.keySet().stream().filter(k -> k.startsWith("05")).count();
      long historyAfter = after.keySet().stream().filter(k -> k.startsWith("05")).count();
      assertEquals(historyBefore, historyAfter);
      assertEquals(List.of(live(3, "pii", "no")), lake.catalog.snapshot().columns(2).get(1).tags());
    }
  }

  @Test
  void aTableCreatedInTheSameCommit_isReportedAsCreatedThenAltered() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            long t = tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64")));
            tx.setComment(new TagTarget.Table(t), "new");
            tx.setComment(new TagTarget.Column(t, 1), "new column");
          });
      // Stock DuckLake 1.5.5 writes this for CREATE TABLE then COMMENT ON TABLE / COLUMN.
      assertEquals(
          "created_table:\"main\".\"t\",altered_table:1",
          lake.catalog.snapshot().info().changesMade());
    }
  }

  @Test
  void schemaTags_bumpTheSchemaVersion_withNoChangeKind_asTheCrateRecordsThem() {
    try (CommitLake lake = lakeWithTable()) {
      var c = lake.catalog;
      c.commit(tx -> tx.setComment(new TagTarget.Schema(1), "a schema"));
      CatalogSnapshot at = c.snapshot();
      assertEquals(3, at.info().snapshotId());
      assertRecord(at, "", 3);
      assertEquals(List.of(live(3, "comment", "a schema")), at.tags(1));
      c.commit(tx -> tx.removeTag(new TagTarget.Schema(1), "comment"));
      assertRecord(c.snapshot(), "", 4);
      assertEquals(List.of(), c.snapshot().tags(1));
      assertEquals(List.of(live(3, "comment", "a schema")), c.snapshotAt(3).tags(1));
      lake.refused(
          NotFoundException.class,
          ErrorCode.NOT_FOUND,
          tx -> tx.setTag(new TagTarget.Schema(9), "k", "v"));
      lake.refused(
          NotFoundException.class,
          ErrorCode.NOT_FOUND,
          tx -> tx.removeTag(new TagTarget.Schema(1), "comment"));
    }
  }

  @Test
  void badTags_areRefusedTyped_andWriteNothing() {
    try (CommitLake lake = lakeWithTable()) {
      var notFound = NotFoundException.class;
      var invalid = InvalidArgumentException.class;
      lake.refused(notFound, ErrorCode.NOT_FOUND, tx -> tx.setComment(new TagTarget.Table(9), "x"));
      lake.refused(notFound, ErrorCode.NOT_FOUND, tx -> tx.setComment(new TagTarget.View(2), "x"));
      lake.refused(
          notFound, ErrorCode.NOT_FOUND, tx -> tx.setComment(new TagTarget.Column(2, 9), "x"));
      lake.refused(
          notFound, ErrorCode.NOT_FOUND, tx -> tx.removeTag(new TagTarget.Table(2), "comment"));
      lake.refused(
          notFound, ErrorCode.NOT_FOUND, tx -> tx.removeTag(new TagTarget.Column(2, 1), "comment"));
      lake.refused(invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.setTag(null, "k", "v"));
      lake.refused(
          invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.setTag(new TagTarget.Table(2), "", "v"));
      lake.refused(
          invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.setTag(new TagTarget.Table(2), "k", null));
    }
  }
}
