package dev.moraine.core.catalog.model;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * One entry of the snapshot log: {@code ducklake_snapshot} and {@code ducklake_snapshot_changes}
 * together, with the counters as they stood after the snapshot's commit.
 */
public record SnapshotInfo(
    long snapshotId,
    long timeMicros,
    long schemaVersion,
    long nextCatalogId,
    long nextFileId,
    String changesMade,
    Optional<String> author,
    Optional<String> commitMessage,
    Optional<String> commitExtraInfo,
    List<Long> schemaChangedTableIds,
    List<Long> deletedDataFileIds) {
  public SnapshotInfo {
    schemaChangedTableIds = List.copyOf(schemaChangedTableIds);
    deletedDataFileIds = List.copyOf(deletedDataFileIds);
  }

  /** The commit time as an instant. */
  public Instant time() {
    return Instant.EPOCH.plus(timeMicros, ChronoUnit.MICROS);
  }
}
