package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The runs of adjacent small files a maintenance pass merges, as {@code
 * ducklake_merge_adjacent_files} picks them: in one table, live data files with fewer rows than the
 * threshold, whose row ids follow on from each other, in one partition, none with a live delete
 * file (stock leaves those out), at least two and at most a bound to a run. A run also stays within
 * one schema version of the table (the one its files began under), so that its files share one
 * Parquet schema; stock merges across versions whose fields the latest keeps, casting as it goes.
 */
final class SmallFileRuns {
  private SmallFileRuns() {}

  /**
   * The runs of table {@code tableId} at {@code head}; {@code inlineDeleted} names the data files
   * with rows deleted inline (left out too, until a flush gives them a delete file).
   */
  static List<List<DataFileInfo>> of(
      CatalogSnapshot head,
      long tableId,
      Set<Long> inlineDeleted,
      long smallRecords,
      int maxInputs) {
    Set<Long> withDeletes = new HashSet<>(inlineDeleted);
    for (DeleteFileInfo d : head.deleteFiles(tableId)) {
      withDeletes.add(d.dataFileId());
    }
    List<DataFileInfo> small = new ArrayList<>();
    for (DataFileInfo f : head.dataFiles(tableId)) {
      if (f.rowIdStart().isPresent()
          && f.recordCount() < smallRecords
          && !withDeletes.contains(f.dataFileId())) {
        small.add(f);
      }
    }
    small.sort(Comparator.comparingLong(f -> f.rowIdStart().getAsLong()));
    List<SchemaVersionInfo> versions = head.schemaVersions(tableId);
    List<List<DataFileInfo>> runs = new ArrayList<>();
    List<DataFileInfo> run = new ArrayList<>();
    for (DataFileInfo f : small) {
      if (!run.isEmpty()
          && (!follows(run.get(run.size() - 1), f)
              || version(versions, run.get(0)) != version(versions, f)
              || run.size() == maxInputs)) {
        keep(runs, run);
        run = new ArrayList<>();
      }
      run.add(f);
    }
    keep(runs, run);
    return runs;
  }

  /** The schema version the file began under: the last one begun at or before it. */
  static long version(List<SchemaVersionInfo> versions, DataFileInfo f) {
    long version = -1;
    long begun = -1;
    for (SchemaVersionInfo v : versions) {
      if (Long.compareUnsigned(v.beginSnapshot(), f.beginSnapshot()) <= 0
          && (begun == -1 || Long.compareUnsigned(v.beginSnapshot(), begun) >= 0)) {
        begun = v.beginSnapshot();
        version = v.schemaVersion();
      }
    }
    return version;
  }

  private static boolean follows(DataFileInfo a, DataFileInfo b) {
    return a.rowIdStart().getAsLong() + a.recordCount() == b.rowIdStart().getAsLong()
        && a.partitionId().equals(b.partitionId())
        && Objects.equals(a.partitionValues(), b.partitionValues());
  }

  private static void keep(List<List<DataFileInfo>> runs, List<DataFileInfo> run) {
    if (run.size() >= 2) {
      runs.add(List.copyOf(run));
    }
  }
}
