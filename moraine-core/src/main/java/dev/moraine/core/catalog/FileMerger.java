package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import java.util.List;
import java.util.Optional;

/**
 * Writes the merged file of a maintenance pass's compaction step: one Parquet file under the
 * table's data path holding every row of {@code inputs}, in their order, with each row's id and
 * inserting snapshot in DuckLake's internal columns (as stock DuckLake's merge writes them; RFC
 * 0005 §2.2). The pass then registers it with {@code mergeDataFiles}. Called on the maintenance
 * thread.
 */
@FunctionalInterface
public interface FileMerger {
  /**
   * Writes the merged file of {@code inputs}, live data files of table {@code tableId} with
   * consecutive row ids, in one partition, none with a live delete file.
   *
   * @return the merged file, or empty to leave these inputs as they are
   */
  Optional<NewDataFile> merge(long tableId, List<DataFileInfo> inputs);
}
