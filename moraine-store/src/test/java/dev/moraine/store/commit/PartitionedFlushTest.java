package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.FlushedInline;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.PartitionKey;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A flush into several data files on real SlateDB ({@link InlineFlush#ofParts}): a table with one
 * row inlined before it was partitioned by {@code (b, year(d))} and four after, in two partitions,
 * one of them deleted inline. The right parts land with a file per version and partition; each way
 * of getting them wrong is refused with nothing written.
 */
class PartitionedFlushTest {
  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /**
   * t (a int32, b varchar, d date): row 0 inlined unpartitioned; then partitioned; rows 1 and 3 in
   * (x, 2024), rows 2 and 4 in (y, 2023); row 3 deleted.
   */
  private static void layOut(CommitLake lake) {
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0,
                "t",
                List.of(
                    ColumnDef.of("a", "int32"),
                    ColumnDef.of("b", "varchar"),
                    ColumnDef.of("d", "date"))));
    lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(0, null, null))));
    lake.catalog.commit(
        tx ->
            tx.setPartitionKey(1, List.of(PartitionKey.identity(2), new PartitionKey(3, "year"))));
    lake.catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(1, "x", LocalDate.parse("2024-05-06")),
                    row(2, "y", LocalDate.parse("2023-01-01")),
                    row(3, "x", LocalDate.parse("2024-12-31")),
                    row(4, "y", LocalDate.parse("2023-07-08")))));
    lake.catalog.commit(tx -> tx.deleteRowInline(1, 3));
  }

  private static NewDataFile file(String path, long rows, String... partition) {
    return NewDataFile.parquet(path, rows, 100, 10).withPartitionValues(List.of(partition));
  }

  private static final FlushDeleteFile DELETES = FlushDeleteFile.parquet("x-del.parquet", 50, 5);

  private static InlineFlush.Part unpartitioned() {
    return InlineFlush.Part.of(file("v.parquet", 1), List.of(0L));
  }

  private static InlineFlush.Part x() {
    return InlineFlush.Part.of(file("b=x/year=2024/f.parquet", 2, "x", "2024"), List.of(1L, 3L))
        .withRowDeletes(DELETES);
  }

  private static InlineFlush.Part y() {
    return InlineFlush.Part.of(file("b=y/year=2023/f.parquet", 2, "y", "2023"), List.of(2L, 4L));
  }

  @Test
  void aFileForTheVersionBeforePartitioningAndOneForEachPartition_land() {
    try (CommitLake lake = new CommitLake()) {
      layOut(lake);
      FlushedInline[] flushed = new FlushedInline[1];
      lake.catalog.commit(
          tx ->
              flushed[0] =
                  tx.flushInlined(1, InlineFlush.ofParts(List.of(unpartitioned(), x(), y()))));
      List<FlushedInline.DataFile> files = flushed[0].dataFiles();
      assertEquals(3, files.size());
      assertEquals(List.of(1L, 3L), files.get(1).rowIds());
      assertEquals(List.of(3L), files.get(1).deletedRowIds());
      assertTrue(files.get(1).rowDeleteFileId().isPresent());
      assertEquals(OptionalLong.empty(), files.get(2).rowDeleteFileId());
      var head = lake.catalog.snapshot();
      assertTrue(head.inlinedRows(1).rows().isEmpty());
      var registered = head.dataFiles(1);
      assertEquals(
          List.of(
              "v.parquet [] 0",
              "b=x/year=2024/f.parquet [x, 2024] 1",
              "b=y/year=2023/f.parquet [y, 2023] 2"),
          registered.stream()
              .map(
                  f ->
                      f.path()
                          + " "
                          + f.partitionValues().stream().map(v -> v.value()).toList()
                          + " "
                          + f.rowIdStart().orElseThrow())
              .toList());
      assertTrue(registered.get(0).partitionId().isEmpty(), "rows from before the partitioning");
      assertTrue(registered.get(1).partitionId().isPresent());
    }
  }

  private static void refused(CommitLake lake, InlineFlush flush, String because, String says) {
    Head before = lake.catalog.head();
    InvalidArgumentException e =
        assertThrows(
            InvalidArgumentException.class,
            () -> lake.catalog.commit(tx -> tx.flushInlined(1, flush)),
            because);
    assertTrue(e.getMessage().contains(says), because + ": " + e.getMessage());
    assertEquals(before, lake.catalog.head(), because + ": nothing written");
    // A closure that catches the refusal and commits stages nothing of it either.
    lake.catalog.commit(
        tx -> {
          try {
            tx.flushInlined(1, flush);
          } catch (InvalidArgumentException expected) {
            // The flush is refused; nothing of it may land.
          }
        });
    assertEquals(before.snapshotId(), lake.catalog.head().snapshotId(), because);
    assertEquals(List.of(), lake.catalog.snapshot().dataFiles(1), because);
  }

  @Test
  void wrongParts_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      layOut(lake);
      refused(
          lake,
          InlineFlush.ofParts(List.of(unpartitioned(), x())),
          "a row left out",
          "the flush's data files hold 3 of the 5");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  unpartitioned(),
                  x(),
                  y(),
                  InlineFlush.Part.of(file("again.parquet", 1, "y", "2023"), List.of(4L)))),
          "a row in two files",
          "is in two data files");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  InlineFlush.Part.of(file("v.parquet", 2, "x", "2024"), List.of(0L, 1L)),
                  InlineFlush.Part.of(file("x.parquet", 1, "x", "2024"), List.of(3L))
                      .withRowDeletes(DELETES),
                  y())),
          "rows of two schema versions in one file",
          "inlined under schema versions");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  InlineFlush.Part.of(file("v.parquet", 1, "x", "2024"), List.of(0L)), x(), y())),
          "partition values for rows inlined before the partitioning",
          "before it was partitioned go into a file without partition values");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  unpartitioned(),
                  InlineFlush.Part.of(file("x.parquet", 2, "x", "2023"), List.of(1L, 3L))
                      .withRowDeletes(DELETES),
                  y())),
          "a year the rows do not have",
          "does not belong in the file with partition value 2023 for year(d): its value is 2024");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  unpartitioned(),
                  InlineFlush.Part.of(file("mixed.parquet", 2, "x", "2024"), List.of(1L, 2L)),
                  InlineFlush.Part.of(file("rest.parquet", 2, "x", "2024"), List.of(3L, 4L))
                      .withRowDeletes(DELETES))),
          "rows of two partitions in one file",
          "does not belong in the file with partition value x for identity(b): its value is y");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  unpartitioned(),
                  InlineFlush.Part.of(file("x.parquet", 2, "x", "2024"), List.of(1L, 3L)),
                  y())),
          "a deleted row without its part's delete file",
          "needs a delete file");
      refused(
          lake,
          InlineFlush.ofParts(
              List.of(
                  unpartitioned(),
                  InlineFlush.Part.of(
                          new NewDataFile(
                              "b=x/year=2024/f.parquet",
                              true,
                              "parquet",
                              2,
                              -1,
                              10,
                              java.util.Optional.empty(),
                              List.of(),
                              List.of("x", "2024")),
                          List.of(1L, 3L))
                      .withRowDeletes(DELETES),
                  y())),
          "a file of the second part with a negative size",
          "size");
      refused(
          lake,
          InlineFlush.of(file("all.parquet", 5)),
          "one file for every row of a partitioned table",
          "inlined under schema versions");
    }
  }
}
