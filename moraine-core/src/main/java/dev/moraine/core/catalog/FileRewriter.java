package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import java.util.List;
import java.util.Optional;

/**
 * Writes the rewritten file of a maintenance pass's rewrite step: one Parquet file under the
 * table's data path holding the rows of {@code inputs} that no deletion at the head names (their
 * delete files' rows and their rows deleted inline left out), each with its row id in DuckLake's
 * internal column (as stock DuckLake's rewrite writes it; RFC 0005 §6). The pass then registers it
 * with {@code rewriteDataFiles}. Called on the maintenance thread.
 */
@FunctionalInterface
public interface FileRewriter {
  /**
   * Writes the rewritten file of {@code inputs}, live data files of table {@code tableId} with
   * deleted rows, in one partition and one schema version.
   *
   * @return the rewritten file, or empty to leave these inputs as they are
   */
  Optional<NewDataFile> rewrite(long tableId, List<DataFileInfo> inputs);
}
