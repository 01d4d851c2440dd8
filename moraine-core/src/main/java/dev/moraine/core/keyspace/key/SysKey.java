package dev.moraine.core.keyspace.key;

/** The four store singletons under {@code 02} (RFC 0002 §4.1). */
public enum SysKey implements Key {
  /** {@code 02 02}: the format stamp. */
  FORMAT(0x02, "format"),
  /** {@code 02 03}: the head (latest snapshot and batch sequence). */
  HEAD(0x03, "head"),
  /** {@code 02 04}: the migration marker. */
  MIGRATION(0x04, "migration"),
  /** {@code 02 05}: the maintenance status. */
  MAINTENANCE_STATUS(0x05, "maintenance_status");

  private final int tag;
  private final String label;

  SysKey(int tag, String label) {
    this.tag = tag;
    this.label = label;
  }

  @Override
  public Subspace subspace() {
    return Subspace.SYS;
  }

  @Override
  public String printable() {
    return "sys/" + label;
  }

  void write(KeyWriter w) {
    w.tag(tag);
  }

  static SysKey read(KeyReader r) {
    int t = r.tag();
    for (SysKey k : values()) {
      if (k.tag == t) {
        return k;
      }
    }
    throw r.unknown("sys", t);
  }
}
