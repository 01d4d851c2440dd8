package dev.moraine.core.keyspace.key;

import java.util.Objects;

/**
 * {@code 05 <kind> <ids> BE64(end_snapshot)}: an ended version of an entity, kept for time travel.
 * There is no second discriminant: the kind byte follows the subspace tag. Writers put only
 * versioned kinds here; the decoder accepts any kind, as the format's own reader does.
 */
public record HistoryKey(EntityKey entity, long endSnapshot) implements Key {
  public HistoryKey {
    Objects.requireNonNull(entity, "entity");
  }

  @Override
  public Subspace subspace() {
    return Subspace.HISTORY;
  }

  @Override
  public String printable() {
    return "history/" + entity.printable() + "@" + Key.u(endSnapshot);
  }

  void write(KeyWriter w) {
    KeyCodec.writeEntity(entity, w);
    w.u64(endSnapshot);
  }

  static HistoryKey read(KeyReader r) {
    EntityKey entity = KeyCodec.readEntity(r);
    return new HistoryKey(entity, r.u64());
  }
}
