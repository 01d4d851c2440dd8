package dev.moraine.core.keyspace.key;

/**
 * One decoded key of the lake (RFC 0002 §3-§5): the subspace, then that subspace's typed fields.
 * {@link KeyCodec} turns a key into its bytes and back; byte order of encoded keys (unsigned,
 * lexicographic) equals the order of subspace, kind bytes, then the fields in declaration order,
 * each id compared unsigned.
 */
public sealed interface Key
    permits SysKey,
        SnapshotKey,
        CurrentKey,
        HistoryKey,
        InlineKey,
        IndexEntryKey,
        SchemaVersionKey,
        ChangelogKey {

  Subspace subspace();

  /**
   * A stable human-readable form, for example {@code current/column/1/2} or {@code
   * history/table/1@5}; ids are printed unsigned. Used in errors and dumps.
   */
  String printable();

  /** This key's bytes. */
  default byte[] encode() {
    return KeyCodec.encode(this);
  }

  static String u(long v) {
    return Long.toUnsignedString(v);
  }
}
