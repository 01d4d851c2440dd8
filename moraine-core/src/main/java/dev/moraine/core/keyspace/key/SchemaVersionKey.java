package dev.moraine.core.keyspace.key;

/**
 * {@code 08 BE64(table_id) BE64(begin_snapshot)}: one ducklake_schema_versions row. {@code tableId}
 * names a table or a view.
 */
public record SchemaVersionKey(long tableId, long beginSnapshot) implements Key {
  @Override
  public Subspace subspace() {
    return Subspace.SCHEMA_VERSION;
  }

  @Override
  public String printable() {
    return "schema_version/" + Key.u(tableId) + "/" + Key.u(beginSnapshot);
  }

  void write(KeyWriter w) {
    w.u64(tableId);
    w.u64(beginSnapshot);
  }

  static SchemaVersionKey read(KeyReader r) {
    return new SchemaVersionKey(r.u64(), r.u64());
  }
}
