package dev.moraine.core.maintenance;

import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.verb.MaintenanceWrites;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes of a maintenance pass that must land in one batch: a dead data file's record, its
 * statistics and its schedule record, or a run of one dropped table's records. Built by one thread,
 * then only read.
 */
final class MaintenanceUnit {
  private final WriteBatch raw = new WriteBatch();
  private final List<EntityKey> currentDeletes = new ArrayList<>();
  private final List<byte[]> currentKeys = new ArrayList<>();
  private final List<Long> scheduled = new ArrayList<>();
  private long removed;

  /** Removes a record that is not a {@code current} entity record. */
  void remove(byte[] key) {
    raw.delete(key);
    removed++;
  }

  /** Removes the {@code current} record of {@code entity}, stored under {@code key}. */
  void removeCurrent(EntityKey entity, byte[] key) {
    currentDeletes.add(entity);
    currentKeys.add(key);
    removed++;
  }

  /** Puts a schedule record for file {@code fileId}. */
  void schedule(long fileId, byte[] key, byte[] value) {
    raw.put(key, value);
    scheduled.add(fileId);
  }

  /** How many keys the unit writes. */
  int size() {
    return raw.size() + currentKeys.size();
  }

  long removed() {
    return removed;
  }

  List<Long> scheduled() {
    return scheduled;
  }

  /** Adds the unit's writes to {@code into}. */
  void addTo(MaintenanceWrites into) {
    for (WriteBatch.Op op : raw.ops()) {
      if (op.isDelete()) {
        into.delete(op.key());
      } else {
        into.put(op.key(), op.value());
      }
    }
    for (int i = 0; i < currentDeletes.size(); i++) {
      into.current(currentDeletes.get(i), currentKeys.get(i), null, null);
    }
  }
}
