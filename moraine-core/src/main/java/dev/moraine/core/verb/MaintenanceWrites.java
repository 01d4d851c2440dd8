package dev.moraine.core.verb;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.kv.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The writes of a head-preserving maintenance batch (RFC 0005 §3): store writes that mint no
 * snapshot and change nothing any retained snapshot reads, beside the head re-put staging adds.
 * {@link #currentRecords} names the {@code current} entity records among them with what each is
 * left as, so the catalog's head view can be carried past the batch instead of reloaded.
 *
 * <p>Confined to the thread that builds it and then to the commit thread, which only reads it.
 */
public final class MaintenanceWrites {
  /** A maintenance draft that writes nothing. */
  public static final MaintenanceWrites NONE = new MaintenanceWrites();

  private final WriteBatch writes = new WriteBatch();
  private final List<StagedEntities.Change> currentRecords = new ArrayList<>();

  /** Deletes one key that holds no {@code current} entity record. */
  public MaintenanceWrites delete(byte[] key) {
    writes.delete(key);
    return this;
  }

  /** Puts one key that holds no {@code current} entity record. */
  public MaintenanceWrites put(byte[] key, byte[] value) {
    writes.put(key, value);
    return this;
  }

  /**
   * Writes the {@code current} record of {@code entity} under {@code key}: {@code value} put, or
   * the key deleted when {@code value} is null.
   */
  public MaintenanceWrites current(EntityKey entity, byte[] key, Message value, byte[] encoded) {
    if (value == null) {
      writes.delete(key);
    } else {
      writes.put(key, encoded);
    }
    currentRecords.add(
        new StagedEntities.Change(entity, Optional.empty(), Optional.ofNullable(value)));
    return this;
  }

  /** The store writes, in the order they were added. */
  public WriteBatch writes() {
    return writes;
  }

  /** The {@code current} entity records written, each with the record it is left as. */
  public List<StagedEntities.Change> currentRecords() {
    return currentRecords;
  }

  public boolean isEmpty() {
    return writes.isEmpty();
  }
}
