package dev.moraine.core.keyspace.key;

import java.util.Arrays;

/**
 * Scan prefixes (RFC 0002 §6). Each is built as the format's own reader builds it: encode a sample
 * key with the fixed components and zeros for the rest, then cut it after the fixed components; so
 * both implementations scan exactly the same byte ranges. Every key with the given leading
 * components starts with the prefix, and no other key does.
 */
public final class KeyPrefixes {
  private KeyPrefixes() {}

  /** {@code 04 02 <kind>}: every live entity of one kind. */
  public static byte[] currentOfKind(EntityKind kind) {
    return cut(CurrentKey.of(zero(kind)), 3);
  }

  /**
   * {@code 04 02 <kind> BE64(table)}: one table's live records of a table-scoped kind (columns,
   * partitions, data and delete files, stats, sorts, mappings, index definitions).
   *
   * @throws IllegalArgumentException the kind's first component is not a table id
   */
  public static byte[] currentOfTable(EntityKind kind, long tableId) {
    if (!kind.tableScoped()) {
      throw new IllegalArgumentException(kind + " is not keyed by table");
    }
    long[] ids = new long[kind.arity()];
    ids[0] = tableId;
    return cut(CurrentKey.of(EntityKey.of(kind, ids)), 11);
  }

  /** {@code 04 03}: every record of the files scheduled for deletion. */
  public static byte[] scheduledDeletions() {
    return new byte[] {0x04, 0x03};
  }

  /** {@code 05 <kind>}: every ended version of one kind. */
  public static byte[] historyOfKind(EntityKind kind) {
    return cut(new HistoryKey(zero(kind), 0), 2);
  }

  /** {@code 05 <kind> <ids>}: every ended version of one entity, oldest end first. */
  public static byte[] historyOf(EntityKey entity) {
    return cut(new HistoryKey(entity, 0), 2 + 8 * entity.kind().arity());
  }

  /**
   * {@code 05 <kind> BE64(table)}: ended versions of one table's records of a table-scoped kind.
   */
  public static byte[] historyOfTable(EntityKind kind, long tableId) {
    if (!kind.tableScoped()) {
      throw new IllegalArgumentException(kind + " is not keyed by table");
    }
    long[] ids = new long[kind.arity()];
    ids[0] = tableId;
    return cut(new HistoryKey(EntityKey.of(kind, ids), 0), 10);
  }

  /** {@code 08 BE64(table)}: one table's (or view's) schema_version records, by begin snapshot. */
  public static byte[] schemaVersionsOf(long tableId) {
    return cut(new SchemaVersionKey(tableId, 0), 9);
  }

  /** {@code 06 02 BE64(table)}: one table's inline schema records. */
  public static byte[] inlineSchemasOf(long tableId) {
    return cut(new InlineKey.Schema(tableId, 0), 10);
  }

  /**
   * {@code 06 07 BE64(table)}: one table's inline schema drop markers (versions a flush closed).
   */
  public static byte[] inlineSchemaDropsOf(long tableId) {
    return cut(new InlineKey.SchemaDropped(tableId, 0), 10);
  }

  /** {@code 06 03 02 BE64(table)}: one table's live insert chunks, by (version, begin, seq). */
  public static byte[] inlineChunksOf(long tableId) {
    return cut(InlineKey.Record.live(new InlineOp.InsertChunk(tableId, 0, 0, 0)), 11);
  }

  /** {@code 06 08 BE64(table)}: one table's chunk locators, by inclusive end row id. */
  public static byte[] chunkLocatorsOf(long tableId) {
    return cut(new InlineKey.ChunkLocator(tableId, 0, 0, 0, 0), 10);
  }

  /** {@code 06 09 BE64(table)}: one table's row tombstones, by row id then end snapshot. */
  public static byte[] rowTombstonesOf(long tableId) {
    return cut(new InlineKey.RowTombstone(tableId, 0, 0), 10);
  }

  /** {@code 06 03 04 BE64(table)}: one table's inlined deletions of data-file rows. */
  public static byte[] inlineFileDeletesOf(long tableId) {
    return cut(InlineKey.Record.live(new InlineOp.FileDelete(tableId, 0, 0)), 11);
  }

  /** {@code 07 02|03 BE64(index)}: all entries of one index, unique or not. */
  public static byte[] indexEntriesOf(long indexId, boolean unique) {
    IndexEntryKey sample =
        unique
            ? new IndexEntryKey.Unique(indexId, new byte[0])
            : new IndexEntryKey.Multi(indexId, new byte[0], 0);
    return cut(sample, 10);
  }

  private static EntityKey zero(EntityKind kind) {
    return EntityKey.of(kind, new long[kind.arity()]);
  }

  private static byte[] cut(Key sample, int length) {
    return Arrays.copyOf(KeyCodec.encode(sample), length);
  }
}
