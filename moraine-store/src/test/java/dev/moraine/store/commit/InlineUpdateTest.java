package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableStats;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Updates of inlined rows on real SlateDB: the row versions, {@code changes_made}, counters and
 * statistics stock DuckLake 1.5.5 records for the same UPDATE with DATA_INLINING_ROW_LIMIT 10
 * (taken from its catalog), time travel across updates, and the typed refusals that write nothing.
 */
class InlineUpdateTest {

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /**
   * CREATE TABLE u (a INTEGER, s VARCHAR, d DECIMAL(9,2)) (snapshot 1, table 1); INSERT INTO u
   * VALUES (1, 'x', 1.5), (2, 'y', 2.5), (3, 'z', 3.5) (snapshot 2, row ids 0 to 2).
   */
  private static void createU(CommitLake lake) {
    createTableU(lake);
    lake.catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(1, "x", new BigDecimal("1.5")),
                    row(2, "y", new BigDecimal("2.5")),
                    row(3, "z", new BigDecimal("3.5")))));
  }

  /** CREATE TABLE u (a INTEGER, s VARCHAR, d DECIMAL(9,2)): snapshot 1, table 1. */
  private static void createTableU(CommitLake lake) {
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0,
                "u",
                List.of(
                    ColumnDef.of("a", "int32"),
                    ColumnDef.of("s", "varchar"),
                    ColumnDef.of("d", "decimal(9,2)"))));
  }

  /** The live inlined rows as "rowId [values]". */
  private static List<String> live(CatalogSnapshot s) {
    return s.inlinedRows(1).rows().stream().map(r -> r.rowId() + " " + r.values()).toList();
  }

  private static String stat(ColumnStats c) {
    return c.containsNull().orElseThrow()
        + " "
        + c.minValue().orElse("-")
        + " "
        + c.maxValue().orElse("-");
  }

  @Test
  void anUpdate_reinlinesTheRowUnderItsId_asStockDuckLakeRecordsIt() {
    try (CommitLake lake = new CommitLake()) {
      createU(lake);
      // UPDATE u SET s = 'yy', d = 9.99 WHERE a = 2
      lake.catalog.commit(tx -> tx.updateRowInline(1, 1, row(2, "yy", new BigDecimal("9.99"))));

      CatalogSnapshot head = lake.catalog.snapshot();
      SnapshotInfo info = head.snapshotLog().get(3);
      assertEquals(
          "3 1 2 2 inlined_insert:1,inlined_delete:1",
          info.snapshotId()
              + " "
              + info.schemaVersion()
              + " "
              + info.nextCatalogId()
              + " "
              + info.nextFileId()
              + " "
              + info.changesMade());
      // Stock DuckLake: record_count 4 (the new version counted, the ended one kept), next_row_id
      // 3.
      assertEquals(new TableStats(1, 4, 3, 0), head.tableStats(1).orElseThrow());
      assertEquals(
          List.of("false 1 3", "false x z", "false 1.50 9.99"),
          head.columnStats(1).stream().map(InlineUpdateTest::stat).toList());
      assertEquals(List.of("0 [1, x, 1.50]", "1 [2, yy, 9.99]", "2 [3, z, 3.50]"), live(head));
      assertEquals(
          List.of("0 [1, x, 1.50]", "1 [2, y, 2.50]", "2 [3, z, 3.50]"),
          live(lake.catalog.snapshotAt(2)),
          "the snapshot before the update reads the old version");
      // ducklake_inlined_data_1_1 as stock DuckLake holds it: the old version ended at 3, the new
      // one begun there under the same id.
      assertEquals(
          List.of("0 2 -", "1 2 3", "1 3 -", "2 2 -"),
          head.history().inlinedRows(1).stream()
              .map(
                  v ->
                      v.version().rowId()
                          + " "
                          + v.version().beginSnapshot()
                          + " "
                          + (v.endSnapshot().isPresent() ? v.endSnapshot().getAsLong() : "-"))
              .toList());

      // A second update of the same row ends the version the first began.
      lake.catalog.commit(tx -> tx.updateRowInline(1, 1, row(2, "yyy", null)));
      assertEquals(
          List.of("0 [1, x, 1.50]", "1 [2, yyy, null]", "2 [3, z, 3.50]"),
          live(lake.catalog.snapshot()));
      assertEquals(
          List.of("0 [1, x, 1.50]", "1 [2, yy, 9.99]", "2 [3, z, 3.50]"),
          live(lake.catalog.snapshotAt(3)));
      assertEquals("true 1.50 9.99", stat(lake.catalog.snapshot().columnStats(1).get(2)));
      // And a delete ends the latest version.
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 1));
      assertEquals(List.of("0 [1, x, 1.50]", "2 [3, z, 3.50]"), live(lake.catalog.snapshot()));
      assertEquals(
          List.of("0 [1, x, 1.50]", "1 [2, yyy, null]", "2 [3, z, 3.50]"),
          live(lake.catalog.snapshotAt(4)));
    }
  }

  /**
   * CREATE TABLE u (...); INSERT 20 rows past the inlining limit (a data file, row ids 0 to 19);
   * UPDATE u SET s = 'upd' WHERE a = 5: stock DuckLake deletes the file row inline and inlines the
   * new version under the same row id 5 (record_count 21, next_row_id 20).
   */
  @Test
  void updatingADataFileRow_deletesItInline_andReinlinesItUnderItsId() {
    try (CommitLake lake = new CommitLake()) {
      createTableU(lake);
      lake.catalog.commit(
          tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 456, 300)));
      lake.catalog.commit(tx -> tx.updateRowInline(1, 5, row(5, "upd", null)));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("inlined_insert:1,inlined_delete:1", head.snapshotLog().get(3).changesMade());
      assertEquals(2, head.snapshotLog().get(3).nextFileId());
      assertEquals(new TableStats(1, 21, 20, 456), head.tableStats(1).orElseThrow());
      assertEquals(List.of("5 [5, upd, null]"), live(head));
      assertEquals(
          List.of("5 at 3"),
          head.history().inlinedFileDeletes().stream()
              .map(d -> d.rowId() + " at " + d.beginSnapshot())
              .toList());
      // The new version is now the row: a second update ends it by a tombstone.
      lake.catalog.commit(tx -> tx.updateRowInline(1, 5, row(5, "upd2", null)));
      assertEquals(List.of("5 [5, upd2, null]"), live(lake.catalog.snapshot()));
      assertEquals(List.of("5 [5, upd, null]"), live(lake.catalog.snapshotAt(3)));
    }
  }

  private static void refused(
      CommitLake lake,
      Class<? extends MoraineException> type,
      String text,
      dev.moraine.core.catalog.CommitBody body) {
    MoraineException e = lake.refused(type, body);
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }

  @Test
  void badUpdates_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      createU(lake);
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 2));
      lake.catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 5, 10, 5)));
      long head = lake.catalog.snapshot().snapshotId();
      List<Object> good = row(2, "yy", new BigDecimal("9.99"));
      refused(lake, NotFoundException.class, "table 9", tx -> tx.updateRowInline(9, 1, good));
      refused(
          lake, NotFoundException.class, "does not exist", tx -> tx.updateRowInline(1, 99, good));
      refused(
          lake,
          NotFoundException.class,
          "already deleted or updated",
          tx -> tx.updateRowInline(1, 2, good));
      refused(
          lake,
          NotFoundException.class,
          "already deleted or updated",
          tx -> {
            tx.updateRowInline(1, 1, good);
            tx.updateRowInline(1, 1, good);
          });
      refused(
          lake,
          NotFoundException.class,
          "already deleted",
          tx -> {
            tx.updateRowInline(1, 1, good);
            tx.deleteRowInline(1, 1);
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "inlined by this same commit",
          tx -> {
            tx.insertInlined(1, List.of(good));
            tx.updateRowInline(1, 8, good);
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "which this commit registers",
          tx -> {
            tx.registerDataFile(1, NewDataFile.parquet("h.parquet", 2, 10, 5));
            tx.updateRowInline(1, 8, good);
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "has 2 values",
          tx -> tx.updateRowInline(1, 1, row(2, "yy")));
      refused(
          lake,
          InvalidArgumentException.class,
          "does not fit",
          tx -> tx.updateRowInline(1, 1, row(2, "yy", new BigDecimal("0.001"))));
      refused(
          lake, InvalidArgumentException.class, "new values", tx -> tx.updateRowInline(1, 1, null));
      assertEquals(head, lake.catalog.snapshot().snapshotId(), "no refusal minted a snapshot");

      // A table whose rows were updated is not flushed by this verb yet: a row has two versions.
      lake.catalog.commit(tx -> tx.updateRowInline(1, 1, good));
      refused(
          lake,
          InvalidArgumentException.class,
          "has two versions (an inline update)",
          tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("g.parquet", 3, 10, 5))));
    }
  }
}
