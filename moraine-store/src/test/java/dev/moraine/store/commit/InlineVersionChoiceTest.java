package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The schema version an inlined insert goes under when no creation or alteration registered one (a
 * data inlining row limit of 0): a registered version is reused only for rows of exactly its
 * columns (ids and members included) and partitioning, else the rows go under the table's newest
 * schema version, and they read back as written. And a flush that read an older snapshot keeps
 * listing a version that still holds rows inlined after it.
 */
class InlineVersionChoiceTest {
  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  private static void limitZero(CommitLake lake) {
    lake.catalog.commit(tx -> tx.setOption(OptionScope.global(), "data_inlining_row_limit", "0"));
  }

  private static List<Long> versions(CommitLake lake) {
    return lake.catalog.snapshot().inlinedRows(1).rows().stream()
        .map(InlinedRows.Row::schemaVersion)
        .toList();
  }

  private static List<List<Object>> values(CommitLake lake) {
    return lake.catalog.snapshot().inlinedRows(1).rows().stream()
        .map(r -> (List<Object>) new ArrayList<>(r.typedValues()))
        .toList();
  }

  @Test
  void aStructThatLostAMember_takesANewVersion() {
    try (CommitLake lake = new CommitLake()) {
      limitZero(lake);
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0,
                  "t",
                  List.of(
                      ColumnDef.nested(
                          "s", "struct", ColumnDef.of("a", "int32"), ColumnDef.of("b", "int32")))));
      Map<String, Object> ab = new LinkedHashMap<>();
      ab.put("a", 1);
      ab.put("b", 2);
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(ab))));
      lake.catalog.commit(tx -> tx.dropColumn(1, 3));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(Map.of("a", 5)))));
      List<Long> v = versions(lake);
      assertNotEquals(v.get(0), v.get(1), "the rows without b go under a version of their own");
      assertEquals(List.of(ab, Map.of("a", 5L)).size(), values(lake).size());
      assertEquals(5, ((Number) ((Map<?, ?>) values(lake).get(1).get(0)).get("a")).intValue());
    }
  }

  @Test
  void aColumnDroppedAndAddedAgainUnderItsName_takesANewVersion_andReadsBack() {
    try (CommitLake lake = new CommitLake()) {
      limitZero(lake);
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "int32"))));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, 2))));
      lake.catalog.commit(tx -> tx.dropColumn(1, 2));
      lake.catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("b", "int32")));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(3, 4))));
      List<Long> v = versions(lake);
      assertNotEquals(v.get(0), v.get(1));
      assertEquals(4L, ((Number) values(lake).get(1).get(1)).longValue(), "the new b's value");
    }
  }

  @Test
  void rowsInlinedAfterThePartitioning_takeANewVersion() {
    try (CommitLake lake = new CommitLake()) {
      limitZero(lake);
      lake.catalog.commit(
          tx ->
              tx.createTable(
                  0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("k", "varchar"))));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"))));
      lake.catalog.commit(tx -> tx.setPartitionKey(1, List.of(PartitionKey.identity(2))));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(2, "x"))));
      List<Long> v = versions(lake);
      assertNotEquals(v.get(0), v.get(1), "rows of the partitioned table, flushed apart");
    }
  }

  @Test
  void aFlushThatReadAnOlderSnapshot_keepsListingAVersionThatStillHoldsRows() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int32"))));
      long read = lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1))));
      // After the flush read: another row under the same version, then a new version.
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(2))));
      lake.catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("b", "int32")));
      long v1 = versions(lake).get(0);
      lake.catalog.commit(
          tx ->
              tx.flushInlined(
                  1, InlineFlush.of(NewDataFile.parquet("f.parquet", 1, 100, 10)).through(read)));
      assertEquals(List.of(v1), versions(lake), "row 2 stays inlined under its version");
      assertTrue(
          lake.catalog.snapshot().history().inlinedSchemaVersions().stream()
              .anyMatch(s -> s.tableId() == 1 && s.schemaVersion() == v1),
          "and that version stays listed");
    }
  }
}
