package dev.moraine.duckdb.export;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * What one export did.
 *
 * @param file the DuckDB file written
 * @param previousSnapshot the newest snapshot the file held before, empty when the export created
 *     the file
 * @param snapshotId the newest snapshot the file holds now
 * @param rowsInserted rows added to the file's tables (an updated row counts once here)
 * @param rowsDeleted rows taken out of the file's tables (an updated row counts once here too)
 */
public record ExportResult(
    Path file,
    OptionalLong previousSnapshot,
    long snapshotId,
    long rowsInserted,
    long rowsDeleted) {

  /** True when the export created the file. */
  public boolean created() {
    return previousSnapshot.isEmpty();
  }

  /** True when the file already held the exported snapshot and nothing was written. */
  public boolean upToDate() {
    return previousSnapshot.isPresent() && previousSnapshot.getAsLong() == snapshotId;
  }
}
