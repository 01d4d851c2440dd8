package dev.moraine.core.maintenance;

import dev.moraine.core.commit.CommitWork;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.verb.MaintenanceWrites;
import dev.moraine.core.view.SnapshotView;
import java.util.List;
import java.util.Optional;

/**
 * One head-preserving batch of an expiry, as the commit path runs it. Its units were found before
 * it was queued and stay right on any later head (nothing a commit writes makes a dead record
 * visible again); the tag records it prunes are read again from the premise each run, because a
 * commit may have changed them since.
 */
final class MaintenanceBatchWork implements CommitWork {
  private final List<MaintenanceUnit> units;
  private final List<Long> tagObjects;
  private final Survivors survivors;

  // Written by each run on the commit thread, read by the expirer once the commit returned (the
  // commit's completion orders the two).
  private volatile long prunedTagEntries;

  MaintenanceBatchWork(List<MaintenanceUnit> units, List<Long> tagObjects, Survivors survivors) {
    this.units = List.copyOf(units);
    this.tagObjects = List.copyOf(tagObjects);
    this.survivors = survivors;
  }

  @Override
  public Draft run(SnapshotView premise, SnapshotValue premiseRecord) {
    MaintenanceWrites writes = new MaintenanceWrites();
    for (MaintenanceUnit unit : units) {
      unit.addTo(writes);
    }
    long pruned = 0;
    for (long objectId : tagObjects) {
      EntityKey.Tag entity = new EntityKey.Tag(objectId);
      Optional<TagValue> tags = premise.recordOf(entity, TagValue.class);
      if (tags.isEmpty()) {
        continue;
      }
      TagValue kept = TagPruning.pruned(tags.get(), survivors);
      if (kept == tags.get()) {
        continue;
      }
      pruned += tags.get().getEntriesCount() - kept.getEntriesCount();
      CurrentKey.Entity key = CurrentKey.of(entity);
      if (kept.getEntriesCount() == 0) {
        writes.current(entity, KeyCodec.encode(key), null, null);
      } else {
        writes.current(entity, KeyCodec.encode(key), kept, ValueCodec.encode(key, kept));
      }
    }
    prunedTagEntries = pruned;
    return Draft.maintenance(
        writes, premiseRecord.getNextCatalogId(), premiseRecord.getNextFileId());
  }

  /** The tag entries the run that landed removed. */
  long prunedTagEntries() {
    return prunedTagEntries;
  }
}
