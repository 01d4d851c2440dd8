package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.FlushedInline;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Inlined inserts, inline deletes and flushes on real SlateDB: what each records (the figures stock
 * DuckLake 1.5.5 writes for the same SQL with DATA_INLINING_ROW_LIMIT on, taken from its catalog),
 * and the typed refusals that write nothing.
 */
class InlineVerbsTest {

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** CREATE TABLE t(a INTEGER, b VARCHAR): snapshot 1, table 1, columns 1 and 2. */
  private static void createT(CommitLake lake) {
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
  }

  /** The live inlined rows as "rowId [values]". */
  private static List<String> live(CatalogSnapshot s, long tableId) {
    return s.inlinedRows(tableId).rows().stream().map(r -> r.rowId() + " " + r.values()).toList();
  }

  @Test
  void insertDeleteFlush_recordWhatStockDuckLakeRecords() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      // INSERT INTO t VALUES (1,'x'),(2,'y')
      long first =
          lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, "y"))));
      assertEquals(2, first);
      // INSERT INTO t VALUES (3,NULL)
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(3, null))));
      // DELETE FROM t WHERE a=2
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 1));
      CatalogSnapshot beforeFlush = lake.catalog.snapshot();
      assertEquals(List.of("0 [1, x]", "2 [3, null]"), live(beforeFlush, 1));
      assertEquals(
          List.of("0 [1, x]", "1 [2, y]"),
          live(lake.catalog.snapshotAt(2), 1),
          "time travel to the first insert sees its two rows");
      // CALL ducklake_flush_inlined_data(...)
      FlushedInline[] flushed = new FlushedInline[1];
      lake.catalog.commit(
          tx ->
              flushed[0] =
                  tx.flushInlined(
                      1,
                      InlineFlush.of(NewDataFile.parquet("flushed.parquet", 3, 667, 499))
                          .withRowDeletes(
                              FlushDeleteFile.parquet("flushed-delete.parquet", 898, 711))));

      // ducklake_snapshot and ducklake_snapshot_changes as stock DuckLake wrote them.
      List<SnapshotInfo> log = lake.catalog.snapshot().snapshotLog();
      assertEquals(
          List.of(
              "0 0 1 0 created_schema:\"main\"",
              "1 1 2 0 created_table:\"main\".\"t\"",
              "2 1 2 1 inlined_insert:1",
              "3 1 2 2 inlined_insert:1",
              "4 1 2 2 inlined_delete:1",
              "5 1 2 4 inline_flush:1"),
          log.stream()
              .map(
                  i ->
                      i.snapshotId()
                          + " "
                          + i.schemaVersion()
                          + " "
                          + i.nextCatalogId()
                          + " "
                          + i.nextFileId()
                          + " "
                          + i.changesMade())
              .toList());
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(new TableStats(1, 3, 3, 667), head.tableStats(1).orElseThrow());
      assertEquals(
          List.of(
              new ColumnStats(
                  1,
                  1,
                  Optional.of(false),
                  Optional.empty(),
                  Optional.of("1"),
                  Optional.of("3"),
                  Optional.empty()),
              new ColumnStats(
                  1,
                  2,
                  Optional.of(true),
                  Optional.empty(),
                  Optional.of("x"),
                  Optional.of("y"),
                  Optional.empty())),
          head.columnStats(1));
      DataFileInfo file = head.dataFiles(1).get(0);
      assertEquals(
          List.of(2L, 2L, 3L, 0L, 667L),
          List.of(
              file.dataFileId(),
              file.beginSnapshot(),
              file.recordCount(),
              file.rowIdStart().getAsLong(),
              file.fileSizeBytes()));
      DeleteFileInfo delete = head.deleteFiles(1).get(0);
      assertEquals(
          List.of(3L, 4L, 2L, 1L),
          List.of(
              delete.deleteFileId(),
              delete.beginSnapshot(),
              delete.dataFileId(),
              delete.deleteCount()));
      assertEquals(
          new FlushedInline(
              List.of(
                  new FlushedInline.DataFile(
                      2, java.util.OptionalLong.of(3), List.of(0L, 1L, 2L), List.of(1L))),
              java.util.Map.of()),
          flushed[0]);
      assertTrue(head.inlinedRows(1).rows().isEmpty(), "the flushed rows left the inline subspace");
      assertTrue(
          head.history().inlinedRows(1).isEmpty(), "and so did their row versions and tombstones");
      assertEquals(1, head.history().inlinedSchemaVersions().size(), "the schema record stays");
    }
  }

  @Test
  void deletingADataFileRow_recordsItInline_atItsPositionInTheFile() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      lake.catalog.commit(
          tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, "y"), row(5, "z"))));
      lake.catalog.commit(
          tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 437, 225)));
      // DELETE FROM t WHERE a=7 AND b='f': the file's row at position 7 has row id 3 + 7.
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 10));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("inlined_delete:1", head.info().changesMade());
      assertEquals(2, head.info().nextFileId(), "an inline delete takes no file id");
      assertEquals(List.of(new InlinedFileDelete(1, 1, 7, 4)), head.history().inlinedFileDeletes());
      assertEquals(List.of(1L), head.history().inlinedDeleteTables());
      assertEquals(23, head.tableStats(1).orElseThrow().recordCount(), "as DuckLake: unchanged");
      NotFoundException again =
          assertThrows(
              NotFoundException.class, () -> lake.catalog.commit(tx -> tx.deleteRowInline(1, 10)));
      assertTrue(again.getMessage().contains("already deleted"), again.getMessage());
    }
  }

  @Test
  void aFlushAlsoMovesInlineDeletionsOfFileRows_intoADeleteFilePerDataFile() {
    try (CommitLake lake = new CommitLake()) {
      // BEGIN; CREATE TABLE t(a INTEGER, b VARCHAR); INSERT INTO t VALUES (1,'x'),(2,'y'); COMMIT
      lake.catalog.commit(
          tx -> {
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar")));
            tx.insertInlined(1, List.of(row(1, "x"), row(2, "y")));
          });
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(3, null))));
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 1));
      // INSERT INTO t SELECT range + 100, 'f' || range FROM range(20): data file 2, rows 3..22
      lake.catalog.commit(
          tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 459, 221)));
      // DELETE FROM t WHERE a = 107
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 10));
      FlushedInline[] flushed = new FlushedInline[1];
      lake.catalog.commit(
          tx ->
              flushed[0] =
                  tx.flushInlined(
                      1,
                      InlineFlush.of(NewDataFile.parquet("flushed.parquet", 3, 667, 499))
                          .withRowDeletes(FlushDeleteFile.parquet("rows-delete.parquet", 898, 711))
                          .withFileDeletes(
                              2, FlushDeleteFile.parquet("f-delete.parquet", 898, 711))));
      CatalogSnapshot head = lake.catalog.snapshot();
      // As stock DuckLake 1.5.5 recorded the same statements.
      assertEquals("deleted_from_table:1,inline_flush:1", head.info().changesMade());
      assertEquals(
          List.of(6L, 1L, 2L, 6L),
          List.of(
              head.snapshotId(),
              head.info().schemaVersion(),
              head.info().nextCatalogId(),
              head.info().nextFileId()));
      assertEquals(List.of("2 4 3 20", "3 1 0 3"), dataFiles(head, 1));
      assertEquals(List.of("4 5 2 1 5", "5 3 3 1 -"), deleteFiles(head, 1));
      assertEquals(new TableStats(1, 23, 23, 1126), head.tableStats(1).orElseThrow());
      assertEquals(java.util.Map.of(2L, 4L), flushed[0].fileDeleteFileIds());
      assertTrue(head.history().inlinedFileDeletes().isEmpty());
      assertEquals(List.of(1L), head.history().inlinedDeleteTables(), "the empty table stays");
      assertEquals(List.of(2L), head.info().deletedDataFileIds());
    }
  }

  /** The delete files of {@code s} as "id begin target count partialMax". */
  private static List<String> deleteFiles(CatalogSnapshot s, long tableId) {
    return s.deleteFiles(tableId).stream()
        .map(
            d ->
                d.deleteFileId()
                    + " "
                    + d.beginSnapshot()
                    + " "
                    + d.dataFileId()
                    + " "
                    + d.deleteCount()
                    + " "
                    + (d.partialMax().isPresent() ? d.partialMax().getAsLong() : "-"))
        .toList();
  }

  /** The data files of {@code s} as "id begin rowIdStart count". */
  private static List<String> dataFiles(CatalogSnapshot s, long tableId) {
    return s.dataFiles(tableId).stream()
        .map(
            f ->
                f.dataFileId()
                    + " "
                    + f.beginSnapshot()
                    + " "
                    + f.rowIdStart().getAsLong()
                    + " "
                    + f.recordCount())
        .toList();
  }

  @Test
  void aDataFileExpiredAfterAnInlineDeletion_stillGetsItsDeleteFile_andTheTableFlushesAgain() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      // INSERT INTO t SELECT ... FROM range(20): data file 0, rows 0..19, snapshot 2
      lake.catalog.commit(
          tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 459, 221)));
      // INSERT INTO t VALUES (500,'x'),(501,'y'): inlined rows 20 and 21, snapshot 3
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(500, "x"), row(501, "y"))));
      // DELETE FROM t WHERE a = 3: position 3 of data file 0, recorded inline at snapshot 4
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 3));
      // The file leaves the table (stock DuckLake: ducklake_rewrite_data_files), snapshot 5; the
      // inline deletion of its row stays pending, as it does in stock DuckLake.
      lake.catalog.commit(tx -> tx.expireDataFile(1, 0));
      assertEquals(
          List.of(new InlinedFileDelete(1, 0, 3, 4)),
          lake.catalog.snapshot().history().inlinedFileDeletes());
      // CALL ducklake_flush_inlined_data: stock DuckLake 1.5.5 writes the flushed file and a
      // delete file for the ended data file, backdated to the deletion.
      FlushedInline[] flushed = new FlushedInline[1];
      lake.catalog.commit(
          tx ->
              flushed[0] =
                  tx.flushInlined(
                      1,
                      InlineFlush.of(NewDataFile.parquet("flushed.parquet", 2, 567, 440))
                          .withFileDeletes(
                              0, FlushDeleteFile.parquet("f-delete.parquet", 938, 743))));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("deleted_from_table:1,inline_flush:1", head.info().changesMade());
      assertEquals(List.of("2 3 20 2"), dataFiles(head, 1));
      assertEquals(List.of("3 4 0 1 4"), deleteFiles(head, 1), "the ended file's delete file");
      assertEquals(List.of(6L, 4L), List.of(head.snapshotId(), head.info().nextFileId()));
      assertEquals(java.util.Map.of(0L, 3L), flushed[0].fileDeleteFileIds());
      assertEquals(List.of(0L), head.info().deletedDataFileIds());
      assertTrue(head.history().inlinedFileDeletes().isEmpty());
      // Time travel, read through a catalog opened after the flush (RFC 0004 §9): while the file
      // was live its row 3 stays deleted, now by the backdated delete file; after the expiry the
      // file is gone and its delete file targets nothing a reader lists.
      try (var reader =
          dev.moraine.core.catalog.Catalog.openReadOnly(
              lake.store, dev.moraine.core.catalog.CatalogOptions.defaults())) {
        CatalogSnapshot before = reader.snapshotAt(3);
        assertEquals(List.of("0 2 0 20", "2 3 20 2"), dataFiles(before, 1));
        assertTrue(deleteFiles(before, 1).isEmpty(), "no deletion yet at snapshot 3");
        CatalogSnapshot deleted = reader.snapshotAt(4);
        assertEquals(List.of("0 2 0 20", "2 3 20 2"), dataFiles(deleted, 1));
        assertEquals(List.of("3 4 0 1 4"), deleteFiles(deleted, 1));
        assertEquals(List.of("2 3 20 2"), dataFiles(reader.snapshotAt(5), 1));
      }
      // The table flushes again.
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(502, "z"))));
      lake.catalog.commit(
          tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("again.parquet", 1, 1, 1))));
      CatalogSnapshot again = lake.catalog.snapshot();
      assertEquals("inline_flush:1", again.info().changesMade());
      assertEquals(List.of("2 3 20 2", "5 7 22 1"), dataFiles(again, 1));
      assertTrue(again.inlinedRows(1).rows().isEmpty());
    }
  }

  @Test
  void aFlushMustNameADeleteFileForEveryDataFileWithInlineDeletions() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      lake.catalog.commit(
          tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 459, 221)));
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 7));
      refused(
          lake,
          InvalidArgumentException.class,
          "have rows deleted inline",
          tx -> tx.flushInlined(1, InlineFlush.fileDeletesOnly()));
      refused(
          lake,
          InvalidArgumentException.class,
          "no inlined rows; the flush takes no data file",
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.of(NewDataFile.parquet("x", 1, 1, 1))
                      .withFileDeletes(0, FlushDeleteFile.parquet("d", 1, 1))));
      lake.catalog.commit(
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.fileDeletesOnly()
                      .withFileDeletes(0, FlushDeleteFile.parquet("d", 9, 3))));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("deleted_from_table:1,inline_flush:1", head.info().changesMade());
      assertEquals(1, head.deleteFiles(1).size());
      assertEquals(3, head.deleteFiles(1).get(0).beginSnapshot());
    }
  }

  @Test
  void aCommitMayInlineSeveralChunks_andInlineIntoATableItCreates() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            long t = tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64")));
            assertEquals(0, tx.insertInlined(t, List.of(row(10L))));
            assertEquals(1, tx.insertInlined(t, List.of(row(11L), row(12L))));
          });
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("created_table:\"main\".\"t\",inlined_insert:1", head.info().changesMade());
      assertEquals(1, head.info().schemaVersion());
      assertEquals(1, head.info().nextFileId(), "one file id per table, not per chunk");
      InlinedRows rows = head.inlinedRows(1);
      assertEquals(List.of(0L, 1L, 2L), rows.rows().stream().map(InlinedRows.Row::rowId).toList());
      assertEquals(
          List.of(1L),
          head.history().inlinedSchemaVersions().stream().map(v -> v.schemaVersion()).toList());
    }
  }

  @Test
  void anAlteredTable_inlinesUnderItsNewSchemaVersion() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"))));
      lake.catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("c", "int64")));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(2, "y", 7L))));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals(2, head.info().schemaVersion(), "an inlined insert carries schema_version");
      assertEquals(
          List.of(1L, 2L),
          head.history().inlinedSchemaVersions().stream().map(v -> v.schemaVersion()).toList());
      InvalidArgumentException twoVersions =
          assertThrows(
              InvalidArgumentException.class,
              () ->
                  lake.catalog.commit(
                      tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("f", 2, 1, 1)))));
      assertTrue(twoVersions.getMessage().contains("schema versions"), twoVersions.getMessage());
    }
  }

  // ---- refusals that write nothing -------------------------------------------------------------

  private static void refused(
      CommitLake lake, Class<? extends MoraineException> type, String text, CommitBody body) {
    MoraineException e = lake.refused(type, body);
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }

  @Test
  void badInserts_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      lake.catalog.commit(
          tx -> tx.createTable(0, "n", List.of(ColumnDef.of("a", "int32").notNull())));
      lake.catalog.commit(tx -> tx.createTable(0, "d", List.of(ColumnDef.of("a", "interval"))));
      refused(
          lake,
          NotFoundException.class,
          "table 9",
          tx -> tx.insertInlined(9, List.of(row(1, "x"))));
      refused(
          lake,
          InvalidArgumentException.class,
          "at least one row",
          tx -> tx.insertInlined(1, List.of()));
      refused(
          lake,
          InvalidArgumentException.class,
          "has 1 values",
          tx -> tx.insertInlined(1, List.of(row(1))));
      refused(
          lake,
          InvalidArgumentException.class,
          "does not fit",
          tx -> tx.insertInlined(1, List.of(row("1", "x"))));
      refused(
          lake,
          InvalidArgumentException.class,
          "does not fit",
          tx -> tx.insertInlined(1, List.of(row(1L << 40, "x"))));
      refused(
          lake,
          InvalidArgumentException.class,
          "NOT NULL",
          tx -> tx.insertInlined(2, List.of(row((Object) null))));
      refused(
          lake,
          InvalidArgumentException.class,
          "cannot be inlined",
          tx -> tx.insertInlined(3, List.of(row("2024-01-01"))));
      assertEquals(3, lake.catalog.snapshot().snapshotId());
    }
  }

  @Test
  void badDeletesAndFlushes_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      createT(lake);
      refused(
          lake,
          InvalidArgumentException.class,
          "no inlined rows",
          tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("f", 1, 1, 1))));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, "y"))));
      refused(lake, NotFoundException.class, "does not exist", tx -> tx.deleteRowInline(1, 2));
      refused(lake, NotFoundException.class, "table 7", tx -> tx.deleteRowInline(7, 0));
      lake.catalog.commit(tx -> tx.deleteRowInline(1, 0));
      refused(lake, NotFoundException.class, "already deleted", tx -> tx.deleteRowInline(1, 0));
      refused(
          lake,
          NotFoundException.class,
          "already deleted",
          tx -> {
            tx.deleteRowInline(1, 1);
            tx.deleteRowInline(1, 1);
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "inlined by this same commit",
          tx -> {
            long r = tx.insertInlined(1, List.of(row(3, "z")));
            tx.deleteRowInline(1, r);
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "holds 3 rows",
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.of(NewDataFile.parquet("f", 3, 1, 1))
                      .withRowDeletes(FlushDeleteFile.parquet("d", 1, 1))));
      refused(
          lake,
          InvalidArgumentException.class,
          "needs a delete file",
          tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("f", 2, 1, 1))));
      refused(
          lake,
          InvalidArgumentException.class,
          "must not be negative",
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.of(NewDataFile.parquet("f", 2, -1, 1))
                      .withRowDeletes(FlushDeleteFile.parquet("d", 1, 1))));
      refused(
          lake,
          InvalidArgumentException.class,
          "flush it in a commit of its own",
          tx -> {
            tx.insertInlined(1, List.of(row(3, "z")));
            tx.flushInlined(
                1,
                InlineFlush.of(NewDataFile.parquet("f", 2, 1, 1))
                    .withRowDeletes(FlushDeleteFile.parquet("d", 1, 1)));
          });
      refused(
          lake,
          InvalidArgumentException.class,
          "changed shape",
          tx -> {
            tx.insertInlined(1, List.of(row(3, "z")));
            tx.addColumn(1, ColumnDef.of("c", "int64"));
          });
      lake.catalog.commit(
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.of(NewDataFile.parquet("f", 2, 1, 1))
                      .withRowDeletes(FlushDeleteFile.parquet("d", 1, 1))));
      refused(
          lake,
          InvalidArgumentException.class,
          "no inlined rows",
          tx -> tx.flushInlined(1, InlineFlush.of(NewDataFile.parquet("f", 2, 1, 1))));
    }
  }
}
