package dev.moraine.core.verb;

import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;
import java.util.Optional;

/**
 * One run's products: the touched entities, the DuckLake operations (which decide whether {@code
 * schema_version} grows), the change set for {@code changes_made}, the tables and views whose shape
 * changed, the data files its delete files target, whether it mints a snapshot (any verb but an
 * option change does), the advanced counters, the inline subspace writes, the equality-index
 * entries, what a compaction removes and schedules, and the writes of a head-preserving maintenance
 * batch.
 */
public record Draft(
    List<StagedEntities.Change> entities,
    List<DuckLakeOperation> operations,
    ChangeSet changes,
    List<Long> schemaChangedIds,
    List<Long> deletedDataFileIds,
    boolean mintsSnapshot,
    long nextCatalogId,
    long nextFileId,
    Optional<String> author,
    Optional<String> commitMessage,
    Optional<String> commitExtraInfo,
    InlineWrites inline,
    dev.moraine.core.kv.WriteBatch indexEntries,
    CompactionWrites compaction,
    MaintenanceWrites maintenance) {

  /**
   * The draft of a head-preserving maintenance batch: {@code writes} and nothing else, minting no
   * snapshot, with the premise's counters carried as they are.
   */
  public static Draft maintenance(MaintenanceWrites writes, long nextCatalogId, long nextFileId) {
    return new Draft(
        List.of(),
        List.of(),
        ChangeSet.empty(),
        List.of(),
        List.of(),
        false,
        nextCatalogId,
        nextFileId,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        new InlineWrites(),
        new dev.moraine.core.kv.WriteBatch(),
        new CompactionWrites(),
        writes);
  }
}
