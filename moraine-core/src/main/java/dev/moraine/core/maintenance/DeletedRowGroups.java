package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The groups of files a maintenance pass rewrites, as {@code ducklake_rewrite_data_files} picks
 * them: in one table, live data files with deleted rows (a live delete file's count plus the rows
 * deleted inline) making at least the threshold's share of their rows, grouped by partition and by
 * the schema version they began under, at most a bound to a group, in row-id order.
 */
final class DeletedRowGroups {
  private DeletedRowGroups() {}

  static List<List<DataFileInfo>> of(
      CatalogSnapshot head, long tableId, double threshold, int maxInputs) {
    Map<Long, Long> deleted = new HashMap<>();
    for (DeleteFileInfo d : head.deleteFiles(tableId)) {
      deleted.merge(d.dataFileId(), d.deleteCount(), Long::sum);
    }
    for (InlinedFileDelete d : head.history().inlinedFileDeletes()) {
      if (d.tableId() == tableId
          && Long.compareUnsigned(d.beginSnapshot(), head.snapshotId()) <= 0) {
        deleted.merge(d.dataFileId(), 1L, Long::sum);
      }
    }
    List<SchemaVersionInfo> versions = head.schemaVersions(tableId);
    // (partition id, partition values, schema version) -> the group's files.
    Map<List<Object>, List<DataFileInfo>> groups = new LinkedHashMap<>();
    for (DataFileInfo f : head.dataFiles(tableId)) {
      long n = deleted.getOrDefault(f.dataFileId(), 0L);
      if (n == 0 || f.recordCount() == 0 || (double) n / f.recordCount() < threshold) {
        continue;
      }
      List<Object> key =
          List.of(
              f.partitionId().isPresent() ? f.partitionId().getAsLong() : -1L,
              f.partitionValues(),
              SmallFileRuns.version(versions, f));
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
    }
    List<List<DataFileInfo>> out = new ArrayList<>();
    for (List<DataFileInfo> group : groups.values()) {
      for (int i = 0; i < group.size(); i += maxInputs) {
        out.add(List.copyOf(group.subList(i, Math.min(group.size(), i + maxInputs))));
      }
    }
    return out;
  }
}
