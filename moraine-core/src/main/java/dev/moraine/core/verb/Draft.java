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
 * entries, what a compaction removes and schedules, the writes of a head-preserving maintenance
 * batch, and, for rows DuckLake authored, its own text of {@code changes_made} (stored as given;
 * the verb path's is written from the change set).
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
    MaintenanceWrites maintenance,
    Optional<String> changesText) {

  /** A draft whose {@code changes_made} is written from its change set. */
  public Draft(
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
    this(
        entities,
        operations,
        changes,
        schemaChangedIds,
        deletedDataFileIds,
        mintsSnapshot,
        nextCatalogId,
        nextFileId,
        author,
        commitMessage,
        commitExtraInfo,
        inline,
        indexEntries,
        compaction,
        maintenance,
        Optional.empty());
  }

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
