package dev.moraine.core.keyspace.key;

/** {@code 09 BE64(snapshot_id)}: the changelog of one snapshot's batch. */
public record ChangelogKey(long snapshotId) implements Key {
  @Override
  public Subspace subspace() {
    return Subspace.CHANGELOG;
  }

  @Override
  public String printable() {
    return "changelog/" + Key.u(snapshotId);
  }

  void write(KeyWriter w) {
    w.u64(snapshotId);
  }

  static ChangelogKey read(KeyReader r) {
    return new ChangelogKey(r.u64());
  }
}
