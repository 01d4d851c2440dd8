package dev.moraine.core.verb;

import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.WriteBatch;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a compaction writes beside the entity overlay (RFC 0005 §2): the entities it removes without
 * a history version (a merge replaces its inputs for every snapshot, as stock DuckLake deletes
 * their rows outright), the history versions it removes with them, and the inputs it schedules for
 * deletion.
 *
 * <p>Confined to the thread running the closure, like the rest of {@link VerbState}.
 */
public final class CompactionWrites {
  private final Set<EntityKey> removedWithoutHistory = new HashSet<>();
  private final Set<HistoryKey> removedHistory = new HashSet<>();
  // Data file id -> its schedule record, without the time: staging stamps the snapshot's.
  private final Map<Long, GcFileValue> scheduled = new LinkedHashMap<>();

  /** Marks {@code entity}, which the overlay ends, as removed from every snapshot. */
  void removeWithoutHistory(EntityKey entity) {
    removedWithoutHistory.add(entity);
  }

  /** Removes one ended version of an entity from the history subspace. */
  void removeHistory(HistoryKey key) {
    removedHistory.add(key);
  }

  /** Schedules a data file for deletion by the file cleanup. */
  void schedule(long dataFileId, String path, boolean pathIsRelative) {
    scheduled.put(
        dataFileId,
        GcFileValue.newBuilder()
            .setDataFileId(dataFileId)
            .setPath(path)
            .setPathIsRelative(pathIsRelative)
            .build());
  }

  /** The ids of the files this compaction schedules for deletion. */
  public Set<Long> scheduledIds() {
    return scheduled.keySet();
  }

  /** Whether ending {@code entity} leaves no history version behind. */
  public boolean removesWithoutHistory(EntityKey entity) {
    return removedWithoutHistory.contains(entity);
  }

  /**
   * Adds the history deletes and the schedule records to {@code batch}, each schedule stamped with
   * {@code nowMicros}, the commit's snapshot time.
   */
  public void addTo(WriteBatch batch, long nowMicros) {
    for (HistoryKey key : removedHistory) {
      batch.delete(KeyCodec.encode(key));
    }
    for (GcFileValue v : scheduled.values()) {
      CurrentKey.ScheduledDeletion key = new CurrentKey.ScheduledDeletion(v.getDataFileId());
      batch.put(
          KeyCodec.encode(key),
          ValueCodec.encode(key, v.toBuilder().setScheduleStartMicros(nowMicros).build()));
    }
  }
}
