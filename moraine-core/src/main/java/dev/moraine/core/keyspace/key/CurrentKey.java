package dev.moraine.core.keyspace.key;

import java.util.Objects;

/** Keys under {@code 04}: live entities and scheduled file deletions (RFC 0002 §5.2). */
public sealed interface CurrentKey extends Key {
  @Override
  default Subspace subspace() {
    return Subspace.CURRENT;
  }

  /** {@code 04 02 <kind> <ids>}: the live version of one entity. */
  record Entity(EntityKey entity) implements CurrentKey {
    public Entity {
      Objects.requireNonNull(entity, "entity");
    }

    @Override
    public String printable() {
      return "current/" + entity.printable();
    }
  }

  /** {@code 04 03 BE64(data_file_id)}: a data file scheduled for deletion. */
  record ScheduledDeletion(long dataFileId) implements CurrentKey {
    @Override
    public String printable() {
      return "current/scheduled_deletion/" + Key.u(dataFileId);
    }
  }

  /** Shorthand for {@code new Entity(entity)}. */
  static Entity of(EntityKey entity) {
    return new Entity(entity);
  }
}
