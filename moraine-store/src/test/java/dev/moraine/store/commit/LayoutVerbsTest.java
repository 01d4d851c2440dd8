package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.SortSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Partition and sort keys: the records stock DuckLake 1.5.5 mints for SET/RESET PARTITIONED BY and
 * SET/RESET SORTED BY (ChangeKindScript's texts), the specs the keyspace keeps, and typed refusals
 * that leave the store unchanged.
 */
class LayoutVerbsTest {
  private static final SortKey A_DESC = new SortKey("a", "duckdb", "DESC", "NULLS_FIRST");

  private static void assertRecord(
      CatalogSnapshot at, String changes, long schemaVersion, long nextCatalogId) {
    SnapshotInfo info = at.info();
    assertEquals(changes, info.changesMade(), "changes_made of " + info.snapshotId());
    assertEquals(schemaVersion, info.schemaVersion(), "schema_version of " + info.snapshotId());
    assertEquals(nextCatalogId, info.nextCatalogId(), "next_catalog_id of " + info.snapshotId());
  }

  /** Schema s1 (id 1) and table s1.t1 (id 2) with columns a (1) and b (2), at snapshot 2. */
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
  void partitionAndSortVerbs_mintDuckLakesRecords_andTimeTravelShowsEachSpec() {
    try (CommitLake lake = lakeWithTable()) {
      var c = lake.catalog;
      long[] specId = new long[1];
      assertEquals(
          3L, c.commit(tx -> specId[0] = tx.setPartitionKey(2, List.of(PartitionKey.identity(1)))));
      assertEquals(3, specId[0], "the partition id comes from next_catalog_id");
      assertRecord(c.snapshot(), "altered_table:2", 3, 4);
      assertEquals(List.of(2L), c.snapshot().info().schemaChangedTableIds());

      c.commit(tx -> tx.resetPartitionKey(2));
      assertRecord(c.snapshot(), "altered_table:2", 4, 4);
      assertEquals(List.of(2L), c.snapshot().info().schemaChangedTableIds());

      assertEquals(5L, c.commit(tx -> specId[0] = tx.setSortKey(2, List.of(A_DESC))));
      assertEquals(4, specId[0], "the sort id comes from next_catalog_id");
      assertRecord(c.snapshot(), "altered_table:2", 5, 5);
      assertEquals(List.of(), c.snapshot().info().schemaChangedTableIds(), "sorting: no record");

      c.commit(tx -> tx.resetSortKey(2));
      assertRecord(c.snapshot(), "altered_table:2", 6, 5);
      assertEquals(List.of(), c.snapshot().info().schemaChangedTableIds());

      PartitionSpec spec = c.snapshotAt(3).partitioning(2).orElseThrow();
      assertEquals(3, spec.partitionId());
      assertEquals(3, spec.beginSnapshot());
      assertEquals(List.of(new PartitionSpec.Column(0, 1, "identity")), spec.columns());
      assertTrue(c.snapshotAt(2).partitioning(2).isEmpty());
      assertTrue(c.snapshotAt(4).partitioning(2).isEmpty());

      SortSpec sort = c.snapshotAt(5).sorting(2).orElseThrow();
      assertEquals(4, sort.sortId());
      assertEquals(
          List.of(new SortSpec.Expression(0, "a", "duckdb", "DESC", "NULLS_FIRST")),
          sort.expressions());
      assertTrue(c.snapshotAt(4).sorting(2).isEmpty());
      assertTrue(c.snapshotAt(6).sorting(2).isEmpty());
    }
  }

  @Test
  void settingAgain_replacesTheLiveSpec_andFilesFollowTheNewKeys() {
    try (CommitLake lake = lakeWithTable()) {
      var c = lake.catalog;
      c.commit(tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1))));
      long[] second = new long[1];
      c.commit(
          tx ->
              second[0] =
                  tx.setPartitionKey(
                      2, List.of(PartitionKey.identity(2), new PartitionKey(1, "bucket(4)"))));
      assertEquals(4, second[0]);
      assertEquals(4, c.snapshot().partitioning(2).orElseThrow().partitionId());
      assertEquals(3, c.snapshotAt(3).partitioning(2).orElseThrow().partitionId());
      c.commit(
          tx ->
              tx.registerDataFile(
                  2,
                  NewDataFile.parquet("p.parquet", 1, 10, 4)
                      .withPartitionValues(List.of("x", "1"))));
      assertEquals(4L, c.snapshot().dataFiles(2).get(0).partitionId().getAsLong());

      c.commit(tx -> tx.setSortKey(2, List.of(A_DESC)));
      c.commit(tx -> tx.setSortKey(2, List.of(new SortKey("b", "duckdb", "ASC", "NULLS_LAST"))));
      assertEquals("b", c.snapshot().sorting(2).orElseThrow().expressions().get(0).expression());
    }
  }

  @Test
  void aTableCreatedInTheSameCommit_isReportedAsCreatedThenAltered() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            long t = tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64")));
            tx.setPartitionKey(t, List.of(PartitionKey.identity(1)));
            tx.setSortKey(t, List.of(A_DESC));
          });
      // Stock DuckLake 1.5.5 writes this for CREATE TABLE then SET PARTITIONED BY / SORTED BY.
      assertRecord(lake.catalog.snapshot(), "created_table:\"main\".\"t\",altered_table:1", 1, 4);
    }
  }

  @Test
  void badKeys_areRefusedTyped_andWriteNothing() {
    try (CommitLake lake = lakeWithTable()) {
      var notFound = NotFoundException.class;
      var invalid = InvalidArgumentException.class;
      lake.refused(
          notFound,
          ErrorCode.NOT_FOUND,
          tx -> tx.setPartitionKey(99, List.of(PartitionKey.identity(1))));
      lake.refused(
          notFound,
          ErrorCode.NOT_FOUND,
          tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(7))));
      lake.refused(notFound, ErrorCode.NOT_FOUND, tx -> tx.resetPartitionKey(2));
      lake.refused(notFound, ErrorCode.NOT_FOUND, tx -> tx.resetSortKey(2));
      lake.refused(notFound, ErrorCode.NOT_FOUND, tx -> tx.setSortKey(99, List.of(A_DESC)));
      lake.refused(invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.setPartitionKey(2, List.of()));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1), PartitionKey.identity(1))));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.setPartitionKey(2, List.of(new PartitionKey(1, ""))));
      lake.refused(invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.setSortKey(2, List.of()));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.setSortKey(2, List.of(new SortKey("", "duckdb", "ASC", "NULLS_LAST"))));
    }
  }

  @Test
  void aPartitionedTable_refusesAFileWithoutItsValues() {
    try (CommitLake lake = lakeWithTable()) {
      lake.catalog.commit(tx -> tx.setPartitionKey(2, List.of(PartitionKey.identity(1))));
      lake.refused(
          InvalidArgumentException.class,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.registerDataFile(2, NewDataFile.parquet("p.parquet", 1, 10, 4)));
    }
  }
}
