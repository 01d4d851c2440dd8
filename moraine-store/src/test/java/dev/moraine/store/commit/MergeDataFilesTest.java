package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.CompactionInputNotLiveException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.catalog.model.TableStats;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code mergeDataFiles} writes what stock DuckLake 1.5.5's {@code ducklake_merge_adjacent_files}
 * writes (probed: three 100-row inserts merged into one file that begins at the first insert's
 * snapshot, keeps row ids 0..299 with {@code row_id_start} 0, leaves the table statistics as they
 * were, removes the inputs' rows outright and schedules their files; non-contiguous inputs give a
 * file without {@code row_id_start}), and refuses what would lose rows.
 */
class MergeDataFilesTest {
  private static final long TABLE = 1;

  private static NewDataFile file(String path, long rows) {
    return NewDataFile.parquet(path, rows, 1000, 100)
        .withColumnStats(List.of(NewFileColumnStats.of(1, 400, rows, 0, "0", "9")));
  }

  /** A lake with table 1 (one INT32 column, id 1) holding {@code files} files of 100 rows. */
  private static CommitLake lakeWith(int files) {
    CommitLake lake = new CommitLake();
    lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "INT32"))));
    for (int i = 0; i < files; i++) {
      int n = i;
      lake.catalog.commit(tx -> tx.registerDataFile(TABLE, file("f" + n + ".parquet", 100)));
    }
    return lake;
  }

  private static List<Long> ids(List<DataFileInfo> files) {
    return files.stream().map(DataFileInfo::dataFileId).toList();
  }

  @Test
  void contiguousInputs_keepTheirRowIds_andTheOutputReplacesThemAtEverySnapshot() {
    try (CommitLake lake = lakeWith(3)) {
      var c = lake.catalog;
      TableStats before = c.snapshot().tableStats(TABLE).orElseThrow();
      long firstInsert = c.snapshot().dataFiles(TABLE).get(0).beginSnapshot();
      long merged =
          c.commit(tx -> tx.mergeDataFiles(TABLE, List.of(2L, 0L, 1L), file("m.parquet", 300)));
      var head = c.snapshot();
      assertEquals("merge_adjacent:1", head.info().changesMade());
      assertEquals(4, head.info().nextFileId(), "the output takes one file id");
      DataFileInfo out = head.dataFiles(TABLE).get(0);
      assertEquals(List.of(3L), ids(head.dataFiles(TABLE)));
      assertEquals(firstInsert, out.beginSnapshot(), "backdated to the first input");
      assertEquals(OptionalLong.of(0), out.rowIdStart());
      assertEquals(300, out.recordCount());
      assertEquals(before, head.tableStats(TABLE).orElseThrow(), "table statistics unchanged");
      assertEquals(
          List.of(3L),
          head.fileColumnStats(TABLE).stream().map(s -> s.dataFileId()).distinct().toList());
      List<ScheduledDeletion> scheduled = head.scheduledDeletions();
      assertEquals(
          List.of(0L, 1L, 2L), scheduled.stream().map(ScheduledDeletion::dataFileId).toList());
      assertEquals("main/t/f1.parquet", scheduled.get(1).path(), "relative to the data path");
      assertEquals(OptionalLong.of(firstInsert + 2), out.partialMax(), "the last input's snapshot");
      assertTrue(
          scheduled.stream().allMatch(s -> s.scheduleStartMicros() == head.info().timeMicros()));
      // Time travel, read afresh (views this catalog built before the merge keep naming the
      // inputs, which hold the same rows): every older snapshot reads the output, and no snapshot
      // keeps an input.
      var fresh = lake.rival();
      assertEquals(List.of(3L), ids(fresh.snapshotAt(firstInsert).dataFiles(TABLE)));
      assertEquals(List.of(3L), ids(fresh.snapshotAt(merged - 1).dataFiles(TABLE)));
      assertEquals(
          List.of(3L),
          head.history().dataFiles().stream().map(v -> v.version().dataFileId()).toList());
      assertEquals(List.of(), ids(fresh.snapshotAt(firstInsert - 1).dataFiles(TABLE)));
      // A later insert takes the next row id the table had before the merge.
      c.commit(tx -> tx.registerDataFile(TABLE, file("g.parquet", 10)));
      assertEquals(OptionalLong.of(300), c.snapshot().dataFiles(TABLE).get(1).rowIdStart());
    }
  }

  /**
   * Rows of an input deleted inline name the input: a merge would leave the deletions naming
   * nothing and bring the rows back, so it is refused until a flush gives the input a delete file.
   */
  @Test
  void anInputWithRowsDeletedInline_isRefused_andNothingIsWritten() {
    try (CommitLake lake = lakeWith(2)) {
      lake.catalog.commit(tx -> tx.deleteRowInline(TABLE, 5));
      var e =
          lake.refused(
              InvalidArgumentException.class,
              tx -> tx.mergeDataFiles(TABLE, List.of(0L, 1L), file("m.parquet", 200)));
      assertTrue(e.getMessage().contains("deleted inline"), e.getMessage());
      lake.refused(
          InvalidArgumentException.class,
          tx -> {
            tx.deleteRowInline(TABLE, 150);
            tx.mergeDataFiles(TABLE, List.of(1L, 0L), file("m.parquet", 200));
          });
    }
  }

  @Test
  void inputsWithAGapInTheirRowIds_giveAFileThatCarriesItsRowIds() {
    try (CommitLake lake = lakeWith(3)) {
      var c = lake.catalog;
      c.commit(tx -> tx.expireDataFile(TABLE, 1));
      c.commit(tx -> tx.mergeDataFiles(TABLE, List.of(0L, 2L), file("m.parquet", 200)));
      DataFileInfo out = c.snapshot().dataFiles(TABLE).get(0);
      assertEquals(3, out.dataFileId());
      assertEquals(OptionalLong.empty(), out.rowIdStart());
      assertEquals(300, c.snapshot().tableStats(TABLE).orElseThrow().nextRowId());
    }
  }

  /**
   * A file that carries its rows' ids has no id range in the catalog: an inline delete by row id
   * still finds rows of files with a range, and refuses an id found nowhere rather than take it for
   * a position in the merged file (row 150 below would be position 150 of it, row 250).
   */
  @Test
  void inlineDeletesByRowId_neverGuessAPositionInAFileThatCarriesItsRowIds() {
    try (CommitLake lake = lakeWith(4)) {
      var c = lake.catalog;
      c.commit(tx -> tx.mergeDataFiles(TABLE, List.of(0L, 2L), file("m.parquet", 200)));
      c.commit(tx -> tx.deleteRowInline(TABLE, 150));
      c.commit(tx -> tx.deleteRowInline(TABLE, 350));
      var unplaced =
          lake.refused(InvalidArgumentException.class, tx -> tx.deleteRowInline(TABLE, 250));
      assertTrue(unplaced.getMessage().contains("[4]"), unplaced.getMessage());
      c.commit(tx -> tx.expireDataFile(TABLE, 1));
      lake.refused(InvalidArgumentException.class, tx -> tx.deleteRowInline(TABLE, 150));
      lake.refused(
          InvalidArgumentException.class, tx -> tx.updateRowInline(TABLE, 120, List.of(7)));
    }
  }

  @Test
  void anInputThatIsNotLive_isRefusedWithItsOwnCode_andNothingIsWritten() {
    try (CommitLake lake = lakeWith(2)) {
      lake.catalog.commit(tx -> tx.expireDataFile(TABLE, 1));
      var e =
          lake.refused(
              CompactionInputNotLiveException.class,
              ErrorCode.COMPACTION_INPUT_NOT_LIVE,
              tx -> tx.mergeDataFiles(TABLE, List.of(0L, 1L, 7L), file("m.parquet", 300)));
      assertEquals(List.of(1L, 7L), e.fileIds());
      assertEquals(TABLE, e.tableId());
    }
  }

  @Test
  void badInputs_areRefused_andNothingIsWritten() {
    try (CommitLake lake = lakeWith(3)) {
      lake.catalog.commit(
          tx -> tx.registerDeleteFile(TABLE, NewDeleteFile.parquet(2, "d", 1, 20, 5)));
      lake.refused(
          InvalidArgumentException.class,
          tx -> tx.mergeDataFiles(TABLE, List.of(0L), file("m.parquet", 100)));
      lake.refused(
          InvalidArgumentException.class,
          tx -> tx.mergeDataFiles(TABLE, List.of(0L, 0L), file("m.parquet", 200)));
      lake.refused(
          InvalidArgumentException.class,
          tx -> tx.mergeDataFiles(TABLE, List.of(0L, 1L), file("m.parquet", 199)));
      var e =
          lake.refused(
              InvalidArgumentException.class,
              tx -> tx.mergeDataFiles(TABLE, List.of(1L, 2L), file("m.parquet", 200)));
      assertTrue(e.getMessage().contains("live delete file"), e.getMessage());
      lake.refused(
          InvalidArgumentException.class,
          tx ->
              tx.mergeDataFiles(
                  TABLE,
                  List.of(0L, 1L),
                  file("m.parquet", 200).withPartitionValues(List.of("1"))));
    }
  }

  @Test
  void aConcurrentInsert_isABenignRace_andTheRerunMergesOnlyTheNamedInputs() {
    try (CommitLake lake = lakeWith(2)) {
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              o -> o.registerDataFile(TABLE, file("late.parquet", 5)),
              runs,
              tx -> tx.mergeDataFiles(TABLE, List.of(0L, 1L), file("m.parquet", 200))));
      assertEquals(2, runs.get(), "the race was lost once and re-run");
      var head = lake.catalog.snapshot();
      assertEquals(List.of(2L, 3L), ids(head.dataFiles(TABLE)), "the late insert survives");
      assertEquals(205, head.tableStats(TABLE).orElseThrow().recordCount());
    }
  }

  @Test
  void aClosureThatChoosesItsInputsFromThePremise_isRefusedOnARerun_insteadOfLosingRows() {
    try (CommitLake lake = lakeWith(2)) {
      // The host wrote the merged file from the two files it saw; the closure re-reads the live
      // files, so after the race it would also take the late insert, which the file lacks.
      NewDataFile merged = file("m.parquet", 200);
      var e =
          org.junit.jupiter.api.Assertions.assertThrows(
              InvalidArgumentException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          o -> o.registerDataFile(TABLE, file("late.parquet", 5)),
                          tx ->
                              tx.mergeDataFiles(
                                  TABLE,
                                  tx.premise().dataFiles(TABLE).stream()
                                      .map(DataFileInfo::dataFileId)
                                      .toList(),
                                  merged))));
      assertTrue(e.getMessage().contains("neither adds nor drops rows"), e.getMessage());
      // Nothing of the merge landed; the rival's insert did, and the inputs are still live.
      assertEquals(List.of(0L, 1L, 2L), ids(lake.catalog.snapshot().dataFiles(TABLE)));
      assertTrue(lake.catalog.snapshot().scheduledDeletions().isEmpty());
    }
  }

  @Test
  void aConcurrentDeleteFromAnInput_isAConflict() {
    try (CommitLake lake = lakeWith(2)) {
      var e =
          org.junit.jupiter.api.Assertions.assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          o -> o.registerDeleteFile(TABLE, NewDeleteFile.parquet(0, "d", 1, 20, 5)),
                          tx ->
                              tx.mergeDataFiles(TABLE, List.of(0L, 1L), file("m.parquet", 200)))));
      assertTrue(e.getMessage().toLowerCase().contains("conflict"), e.getMessage());
      assertFalse(
          ids(lake.catalog.snapshot().dataFiles(TABLE)).contains(2L), "the merge did not land");
    }
  }
}
