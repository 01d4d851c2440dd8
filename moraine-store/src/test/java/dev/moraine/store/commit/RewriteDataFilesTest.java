package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.CompactionInputNotLiveException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.TableStats;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code rewriteDataFiles} writes what stock DuckLake 1.5.5's {@code ducklake_rewrite_data_files}
 * writes, each case probed on stock with the same rows (RFC 0005 §6.1): three 100-row files of
 * {@code (a INT32, b VARCHAR)} with {@code a} 0..99, 100..199, 200..299 and {@code b} {@code x},
 * {@code y}, {@code z} followed by {@code a}; the inputs and their delete files end at the rewrite,
 * the output begins there with no {@code row_id_start}, and the table's statistics are counted
 * afresh only when no deletion is left on it.
 */
class RewriteDataFilesTest {
  private static final long TABLE = 1;
  private static final long[] SIZES = {1113, 1118, 1118};

  private static NewDataFile file(String path, long rows, long size, String min, String max) {
    return NewDataFile.parquet(path, rows, size, 100)
        .withColumnStats(
            List.of(
                NewFileColumnStats.of(1, 400, rows, 0, min, max),
                NewFileColumnStats.of(2, 400, rows, 0, prefix(min) + min, prefix(max) + max)));
  }

  private static String prefix(String a) {
    int v = Integer.parseInt(a);
    return v < 100 ? "x" : v < 200 ? "y" : "z";
  }

  /** The probe's lake: table 1 with its three files (ids 0, 1, 2; snapshots 2, 3, 4). */
  private static CommitLake probeLake() {
    CommitLake lake = new CommitLake();
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "INT32"), ColumnDef.of("b", "VARCHAR"))));
    for (int i = 0; i < 3; i++) {
      int n = i;
      lake.catalog.commit(
          tx ->
              tx.registerDataFile(
                  TABLE,
                  file(
                      "f" + n + ".parquet",
                      100,
                      SIZES[n],
                      String.valueOf(100 * n),
                      String.valueOf(100 * n + 99))));
    }
    return lake;
  }

  private static void deleteRows(CommitLake lake, long dataFile, long count) {
    lake.catalog.commit(
        tx ->
            tx.registerDeleteFile(
                TABLE,
                NewDeleteFile.parquet(dataFile, "d" + dataFile + ".parquet", count, 300, 50)));
  }

  private static List<Long> ids(List<DataFileInfo> files) {
    return files.stream().map(DataFileInfo::dataFileId).toList();
  }

  private static ColumnStats column(long id, String min, String max, boolean nulls) {
    return new ColumnStats(
        TABLE,
        id,
        Optional.of(nulls),
        Optional.empty(),
        Optional.of(min),
        Optional.of(max),
        Optional.empty());
  }

  /**
   * Probe A: 60 rows deleted from file 0, 80 from file 1, both rewritten into one file of 60 rows.
   * No deletion is left, so stock counts the statistics afresh: 160 rows, the bytes of file 2 and
   * the output, and bounds from them alone (a's minimum 60, no longer 0).
   */
  @Test
  void aRewriteThatLeavesNoDeletion_endsItsInputs_andCountsTheStatisticsAfresh() {
    try (CommitLake lake = probeLake()) {
      var c = lake.catalog;
      deleteRows(lake, 0, 60);
      deleteRows(lake, 1, 80);
      long beforeRewrite = c.snapshot().info().snapshotId();
      long landed =
          c.commit(
              tx ->
                  tx.rewriteDataFiles(
                      TABLE, List.of(1L, 0L), file("r.parquet", 60, 1208, "60", "199")));
      var head = c.snapshot();
      assertEquals(landed, head.info().snapshotId());
      assertEquals("rewrite_delete:1", head.info().changesMade());
      assertEquals(6, head.info().nextFileId(), "the output takes next_file_id, 5");
      assertEquals(List.of(2L, 5L), ids(head.dataFiles(TABLE)));
      DataFileInfo rewritten = head.dataFiles(TABLE).get(1);
      assertEquals(head.info().snapshotId(), rewritten.beginSnapshot(), "begins at the rewrite");
      assertEquals(OptionalLong.empty(), rewritten.rowIdStart(), "its rows carry their ids");
      assertEquals(OptionalLong.empty(), rewritten.partialMax());
      assertEquals(List.of(), head.deleteFiles(TABLE), "the delete files ended with their files");
      assertEquals(List.of(), head.scheduledDeletions(), "nothing is scheduled");
      assertEquals(
          new TableStats(TABLE, 160, 300, SIZES[2] + 1208), head.tableStats(TABLE).orElseThrow());
      assertEquals(
          List.of(column(1, "60", "299", false), column(2, "x60", "z299", false)),
          head.columnStats(TABLE));
      // The inputs and their delete files ended here: the snapshot before still reads them.
      var fresh = lake.rival();
      var old = fresh.snapshotAt(beforeRewrite);
      assertEquals(List.of(0L, 1L, 2L), ids(old.dataFiles(TABLE)));
      assertEquals(
          List.of(0L, 1L),
          old.deleteFiles(TABLE).stream().map(DeleteFileInfo::dataFileId).toList());
      assertTrue(
          head.history().dataFiles().stream()
              .anyMatch(
                  v ->
                      v.version().dataFileId() == 0
                          && v.endSnapshot().equals(OptionalLong.of(head.info().snapshotId()))),
          "file 0 ended at the rewrite");
      // The file statistics of the inputs stay with their ended rows.
      assertEquals(
          List.of(0L, 0L, 1L, 1L, 2L, 2L, 5L, 5L),
          head.fileColumnStats(TABLE).stream().map(s -> s.dataFileId()).toList());
    }
  }

  /**
   * Probe E: file 0 (60 of 100 deleted) rewritten, file 1 (10 deleted) left below the threshold. A
   * deletion is left on the table, so stock changes none of its statistics, the record count and
   * byte count included.
   */
  @Test
  void aRewriteThatLeavesADeletion_changesNoStatistic() {
    try (CommitLake lake = probeLake()) {
      var c = lake.catalog;
      deleteRows(lake, 0, 60);
      deleteRows(lake, 1, 10);
      TableStats stats = c.snapshot().tableStats(TABLE).orElseThrow();
      List<ColumnStats> columns = c.snapshot().columnStats(TABLE);
      c.commit(
          tx -> tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99")));
      var head = c.snapshot();
      assertEquals(List.of(1L, 2L, 5L), ids(head.dataFiles(TABLE)));
      assertEquals(List.of(1L), head.deleteFiles(TABLE).stream().map(d -> d.dataFileId()).toList());
      assertEquals(stats, head.tableStats(TABLE).orElseThrow());
      assertEquals(columns, head.columnStats(TABLE));
    }
  }

  /**
   * Probe F: five rows of file 0 deleted inline, the file rewritten. The inlined deletions stay
   * (they apply to the ended file at older snapshots); no deletion is left on a live file, so the
   * statistics are counted afresh.
   */
  @Test
  void rowsDeletedInline_countAsDeletions_andStayForOlderSnapshots() {
    try (CommitLake lake = probeLake()) {
      var c = lake.catalog;
      c.commit(
          tx -> {
            for (long r = 0; r < 5; r++) {
              tx.deleteRowInline(TABLE, r);
            }
          });
      long deleted = c.snapshot().info().snapshotId();
      c.commit(
          tx -> tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 95, 1638, "5", "99")));
      var head = c.snapshot();
      assertEquals(List.of(1L, 2L, 3L), ids(head.dataFiles(TABLE)));
      assertEquals(
          new TableStats(TABLE, 295, 300, 1638 + SIZES[1] + SIZES[2]),
          head.tableStats(TABLE).orElseThrow());
      assertEquals(column(1, "5", "299", false), head.columnStats(TABLE, 1).orElseThrow());
      var old = lake.rival().snapshotAt(deleted);
      assertEquals(List.of(0L, 1L, 2L), ids(old.dataFiles(TABLE)));
      assertEquals(5, head.history().inlinedFileDeletes().size(), "the inline deletions stay");
    }
  }

  /**
   * Probe G: two inlined rows ({@code (-7, 'aa')} and {@code (5000, NULL)}) beside the files, 60
   * rows of file 0 deleted and the file rewritten. The fresh count takes in the inlined rows: 242
   * rows, a's bounds -7..5000, b's minimum 'aa' and its null.
   */
  @Test
  void theFreshCount_takesInTheLiveInlinedRows() {
    try (CommitLake lake = probeLake()) {
      var c = lake.catalog;
      c.commit(
          tx ->
              tx.insertInlined(
                  TABLE, List.of(List.of(-7, "aa"), Arrays.asList((Object) 5000, null))));
      deleteRows(lake, 0, 60);
      c.commit(
          tx -> tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99")));
      var head = c.snapshot();
      assertEquals(
          new TableStats(TABLE, 242, 302, 966 + SIZES[1] + SIZES[2]),
          head.tableStats(TABLE).orElseThrow());
      assertEquals(
          List.of(column(1, "-7", "5000", false), column(2, "aa", "z299", true)),
          head.columnStats(TABLE));
    }
  }

  /**
   * Probed: a column all null in one file leaves its bounds unknown in the fresh count, however the
   * other files bound it (stock adds the counts before it looks for a valid value).
   */
  @Test
  void aColumnAllNullInOneFile_hasNoBoundsAfterTheFreshCount() {
    try (CommitLake lake = new CommitLake()) {
      var c = lake.catalog;
      c.commit(
          tx ->
              tx.createTable(
                  0, "t", List.of(ColumnDef.of("a", "INT32"), ColumnDef.of("b", "VARCHAR"))));
      c.commit(
          tx ->
              tx.registerDataFile(
                  TABLE,
                  NewDataFile.parquet("f0.parquet", 100, 1000, 100)
                      .withColumnStats(
                          List.of(
                              NewFileColumnStats.of(1, 400, 100, 0, "0", "99"),
                              NewFileColumnStats.of(2, 40, 0, 100, null, null)))));
      c.commit(tx -> tx.registerDataFile(TABLE, file("f1.parquet", 100, 1118, "100", "199")));
      deleteRows(lake, 1, 60);
      c.commit(
          tx -> tx.rewriteDataFiles(TABLE, List.of(1L), file("r.parquet", 40, 700, "160", "199")));
      ColumnStats b = c.snapshot().columnStats(TABLE, 2).orElseThrow();
      assertEquals(Optional.of(true), b.containsNull());
      assertEquals(Optional.empty(), b.minValue());
      assertEquals(Optional.empty(), b.maxValue());
      assertEquals(Optional.of("0"), c.snapshot().columnStats(TABLE, 1).orElseThrow().minValue());
    }
  }

  @Test
  void badRewrites_areRefused_andNothingIsWritten() {
    try (CommitLake lake = probeLake()) {
      deleteRows(lake, 0, 60);
      lake.refused(
          InvalidArgumentException.class,
          tx -> tx.rewriteDataFiles(TABLE, List.of(), file("r.parquet", 40, 966, "60", "99")));
      var e =
          lake.refused(
              InvalidArgumentException.class,
              tx ->
                  tx.rewriteDataFiles(
                      TABLE, List.of(0L, 1L), file("r.parquet", 140, 966, "60", "199")));
      assertTrue(e.getMessage().contains("no deleted rows"), e.getMessage());
      e =
          lake.refused(
              InvalidArgumentException.class,
              tx ->
                  tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 41, 966, "60", "99")));
      assertTrue(e.getMessage().contains("not deleted"), e.getMessage());
      lake.refused(
          InvalidArgumentException.class,
          tx ->
              tx.rewriteDataFiles(TABLE, List.of(0L, 0L), file("r.parquet", 40, 966, "60", "99")));
      lake.refused(
          InvalidArgumentException.class,
          tx ->
              tx.rewriteDataFiles(
                  TABLE,
                  List.of(0L),
                  file("r.parquet", 40, 966, "60", "99").withPartitionValues(List.of("1"))));
      lake.refused(
          InvalidArgumentException.class,
          tx -> {
            tx.deleteRowInline(TABLE, 150);
            tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99"));
          });
      lake.refused(
          CompactionInputNotLiveException.class,
          ErrorCode.COMPACTION_INPUT_NOT_LIVE,
          tx ->
              tx.rewriteDataFiles(TABLE, List.of(0L, 9L), file("r.parquet", 40, 966, "60", "99")));
      deleteRows(lake, 1, 100);
      e =
          lake.refused(
              InvalidArgumentException.class,
              tx -> tx.rewriteDataFiles(TABLE, List.of(1L), file("r.parquet", 1, 966, "60", "99")));
      assertTrue(e.getMessage().contains("survives"), e.getMessage());
    }
  }

  @Test
  void aConcurrentInsert_isABenignRace_andTheRewriteLandsBesideIt() {
    try (CommitLake lake = probeLake()) {
      deleteRows(lake, 0, 60);
      AtomicInteger runs = new AtomicInteger();
      lake.catalog.commit(
          lake.racing(
              1,
              o -> o.registerDataFile(TABLE, file("late.parquet", 5, 300, "300", "304")),
              runs,
              tx ->
                  tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99"))));
      assertEquals(2, runs.get(), "the race was lost once and re-run");
      var head = lake.catalog.snapshot();
      assertEquals(List.of(1L, 2L, 4L, 5L), ids(head.dataFiles(TABLE)), "the late insert stays");
      assertEquals(OptionalLong.of(300), head.dataFiles(TABLE).get(2).rowIdStart());
      TableStats stats = head.tableStats(TABLE).orElseThrow();
      assertEquals(245, stats.recordCount());
      assertEquals(305, stats.nextRowId());
    }
  }

  @Test
  void aConcurrentDelete_isAConflict_andARewrittenInputIsNeverRewrittenTwice() {
    try (CommitLake lake = probeLake()) {
      deleteRows(lake, 0, 60);
      var e =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      lake.racing(
                          1,
                          o -> o.registerDeleteFile(TABLE, NewDeleteFile.parquet(1, "d", 1, 20, 5)),
                          tx ->
                              tx.rewriteDataFiles(
                                  TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99")))));
      assertTrue(e.getMessage().toLowerCase().contains("conflict"), e.getMessage());
      assertEquals(List.of(0L, 1L, 2L), ids(lake.catalog.snapshot().dataFiles(TABLE)));
      lake.catalog.commit(
          tx -> tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99")));
      lake.refused(
          CompactionInputNotLiveException.class,
          tx -> tx.rewriteDataFiles(TABLE, List.of(0L), file("r.parquet", 40, 966, "60", "99")));
      assertFalse(ids(lake.catalog.snapshot().dataFiles(TABLE)).contains(0L));
    }
  }
}
