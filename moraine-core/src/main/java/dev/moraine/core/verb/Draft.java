package dev.moraine.core.verb;

import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;
import java.util.Optional;

/**
 * One run's products: the touched entities, the DuckLake operations (which decide whether {@code
 * schema_version} grows), the change set for {@code changes_made}, the tables and views whose shape
 * changed, the data files its delete files target, whether it mints a snapshot (any verb but an
 * option change does), the advanced counters, the inline subspace writes, and what a compaction
 * removes and schedules.
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
    CompactionWrites compaction) {}
