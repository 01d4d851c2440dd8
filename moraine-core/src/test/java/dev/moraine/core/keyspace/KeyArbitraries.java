package dev.moraine.core.keyspace;

import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Keys of every kind, with ids drawn so that equal and neighbouring ids are common. */
final class KeyArbitraries {
  private KeyArbitraries() {}

  /** Ids: small values (so keys collide and tie), boundaries, and the whole unsigned range. */
  static Arbitrary<Long> ids() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.longs().between(0, 3)),
        net.jqwik.api.Tuple.of(
            1, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 1L << 56, 255L, 256L)),
        net.jqwik.api.Tuple.of(3, Arbitraries.longs()));
  }

  /** Canonical index values: short, with plenty of 00 and 01 bytes to exercise escaping. */
  static Arbitrary<byte[]> canonicalValues() {
    return Arbitraries.bytes()
        .between((byte) 0, (byte) 3)
        .injectDuplicates(0.3)
        .array(byte[].class)
        .ofMaxSize(6)
        .edgeCases(c -> c.add(new byte[0]));
  }

  static Arbitrary<EntityKey> entities() {
    return Arbitraries.of(EntityKind.class)
        .flatMap(
            kind ->
                ids()
                    .list()
                    .ofSize(kind.arity())
                    .map(l -> EntityKey.of(kind, l.stream().mapToLong(Long::longValue).toArray())));
  }

  static Arbitrary<InlineOp> ops() {
    return Arbitraries.oneOf(
        Combinators.combine(ids(), ids(), ids(), ids()).as(InlineOp.InsertChunk::new),
        Combinators.combine(ids(), ids()).as(InlineOp.LegacyInlineDelete::new),
        Combinators.combine(ids(), ids(), ids()).as(InlineOp.FileDelete::new));
  }

  static Arbitrary<Key> keys() {
    List<Arbitrary<? extends Key>> all = new ArrayList<>();
    all.add(Arbitraries.of(SysKey.class));
    all.add(ids().map(SnapshotKey::new));
    all.add(entities().map(CurrentKey::of));
    all.add(ids().map(CurrentKey.ScheduledDeletion::new));
    all.add(Combinators.combine(entities(), ids()).as(HistoryKey::new));
    all.add(Combinators.combine(ids(), ids()).as(InlineKey.Schema::new));
    all.add(
        Combinators.combine(Arbitraries.of(InlineKey.Form.class), ops()).as(InlineKey.Record::new));
    all.add(ids().map(InlineKey.FileDeleteTable::new));
    all.add(Combinators.combine(ids(), ids()).as(InlineKey.LegacyChunkRange::new));
    all.add(Combinators.combine(ids(), ids()).as(InlineKey.SchemaDropped::new));
    all.add(Combinators.combine(ids(), ids(), ids(), ids(), ids()).as(InlineKey.ChunkLocator::new));
    all.add(Combinators.combine(ids(), ids(), ids()).as(InlineKey.RowTombstone::new));
    all.add(Combinators.combine(ids(), canonicalValues()).as(IndexEntryKey.Unique::new));
    all.add(Combinators.combine(ids(), canonicalValues(), ids()).as(IndexEntryKey.Multi::new));
    all.add(Combinators.combine(ids(), ids()).as(SchemaVersionKey::new));
    all.add(ids().map(ChangelogKey::new));
    return Arbitraries.oneOf(all);
  }
}
