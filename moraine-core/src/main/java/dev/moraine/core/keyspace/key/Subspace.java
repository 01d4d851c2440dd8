package dev.moraine.core.keyspace.key;

/**
 * The first byte of every key (RFC 0002 §4). It is also the SlateDB segment the key lives in, so a
 * scan under one subspace never leaves its segment.
 */
public enum Subspace {
  /** Store singletons: format stamp, head, migration marker, maintenance status. */
  SYS(0x02, "sys"),
  /** One record per snapshot. */
  SNAPSHOT(0x03, "snapshot"),
  /** The live version of every catalog entity, and the files scheduled for deletion. */
  CURRENT(0x04, "current"),
  /** Ended versions of versioned entities, by entity then end snapshot. */
  HISTORY(0x05, "history"),
  /** Inlined data: Arrow schemas, chunks, tombstones, the chunk directory, markers. */
  INLINE(0x06, "inline"),
  /** Equality-index entries. */
  INDEX(0x07, "index"),
  /** One record per (table or view, snapshot) whose shape changed. */
  SCHEMA_VERSION(0x08, "schema_version"),
  /** The current keys one snapshot's batch wrote. */
  CHANGELOG(0x09, "changelog");

  private final int tag;
  private final String label;

  Subspace(int tag, String label) {
    this.tag = tag;
    this.label = label;
  }

  /** The key's first byte. */
  public int tag() {
    return tag;
  }

  /** The name used in printable keys. */
  public String label() {
    return label;
  }

  /** The one-byte prefix of every key in this subspace. */
  public byte[] prefix() {
    return new byte[] {(byte) tag};
  }

  /** The subspace whose key byte is {@code tag}, or null. */
  public static Subspace ofTag(int tag) {
    for (Subspace s : values()) {
      if (s.tag == tag) {
        return s;
      }
    }
    return null;
  }
}
