package dev.moraine.core.keyspace.key;

/** {@code 03 BE64(snapshot_id)}: one snapshot record. */
public record SnapshotKey(long snapshotId) implements Key {
  @Override
  public Subspace subspace() {
    return Subspace.SNAPSHOT;
  }

  @Override
  public String printable() {
    return "snapshot/" + Key.u(snapshotId);
  }

  void write(KeyWriter w) {
    w.u64(snapshotId);
  }

  static SnapshotKey read(KeyReader r) {
    return new SnapshotKey(r.u64());
  }
}
