package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class KeyCodecPropertiesTest {
  @Provide
  Arbitrary<Key> keys() {
    return KeyArbitraries.keys();
  }

  @Property(tries = 1000)
  void decode_inverts_encode(@ForAll("keys") Key key) {
    byte[] bytes = KeyCodec.encode(key);
    assertEquals(key, KeyCodec.decode(bytes));
    assertArrayEquals(bytes, KeyCodec.encode(KeyCodec.decode(bytes)));
  }

  /** Unsigned byte order of encodings equals the order of the logical fields, for any two keys. */
  @Property(tries = 1500)
  void byte_order_is_logical_order(@ForAll("keys") Key a, @ForAll("keys") Key b) {
    int logical = Integer.signum(LogicalKeyOrder.ORDER.compare(a, b));
    int bytes = Integer.signum(Arrays.compareUnsigned(KeyCodec.encode(a), KeyCodec.encode(b)));
    assertEquals(logical, bytes, a.printable() + " vs " + b.printable());
  }

  /** Two keys of the same kind, which share every level byte, so the ids decide. */
  @Property(tries = 2000)
  void byte_order_is_logical_order_within_one_kind(
      @ForAll("sameKindPairs") EntityKey[] pair, @ForAll boolean history) {
    Key a =
        history
            ? new dev.moraine.core.keyspace.key.HistoryKey(pair[0], 1)
            : dev.moraine.core.keyspace.key.CurrentKey.of(pair[0]);
    Key b =
        history
            ? new dev.moraine.core.keyspace.key.HistoryKey(pair[1], 1)
            : dev.moraine.core.keyspace.key.CurrentKey.of(pair[1]);
    assertEquals(
        Integer.signum(LogicalKeyOrder.ORDER.compare(a, b)),
        Integer.signum(Arrays.compareUnsigned(KeyCodec.encode(a), KeyCodec.encode(b))));
  }

  @Provide
  Arbitrary<EntityKey[]> sameKindPairs() {
    return Arbitraries.of(EntityKind.class)
        .flatMap(
            kind ->
                KeyArbitraries.ids()
                    .list()
                    .ofSize(2 * kind.arity())
                    .map(
                        l -> {
                          long[] x = l.stream().mapToLong(Long::longValue).toArray();
                          return new EntityKey[] {
                            EntityKey.of(kind, Arrays.copyOfRange(x, 0, kind.arity())),
                            EntityKey.of(kind, Arrays.copyOfRange(x, kind.arity(), x.length))
                          };
                        }));
  }

  /** No key's encoding is a proper prefix of another's, so a prefix scan never mixes kinds. */
  @Property(tries = 1000)
  void no_encoding_is_a_proper_prefix_of_another(@ForAll("keys") Key a, @ForAll("keys") Key b) {
    byte[] x = KeyCodec.encode(a);
    byte[] y = KeyCodec.encode(b);
    if (x.length < y.length) {
      assertTrue(
          Arrays.mismatch(x, y) < x.length, a.printable() + " is a prefix of " + b.printable());
    }
  }

  @Property(tries = 500)
  void every_strict_prefix_and_every_extension_is_refused(
      @ForAll("keys") Key key, @ForAll byte extra) {
    byte[] bytes = KeyCodec.encode(key);
    for (int len = 0; len < bytes.length; len++) {
      byte[] cut = Arrays.copyOf(bytes, len);
      KeyspaceDataException e =
          assertThrows(KeyspaceDataException.class, () -> KeyCodec.decode(cut));
      assertTrue(e.key().startsWith("x'"), e.key());
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    longer[bytes.length] = extra;
    // An index value's terminator can absorb nothing after it: the row id or the end follows.
    assertThrows(KeyspaceDataException.class, () -> KeyCodec.decode(longer));
  }

  /** The prefix of an entity's table selects exactly that table's keys of that kind. */
  @Property(tries = 500)
  void table_prefixes_select_exactly_one_tables_records(
      @ForAll("keys") Key key, @ForAll("tableIds") long table) {
    for (EntityKind kind : EntityKind.values()) {
      if (!kind.tableScoped()) {
        continue;
      }
      byte[] prefix = KeyPrefixes.currentOfTable(kind, table);
      boolean selected = startsWith(KeyCodec.encode(key), prefix);
      boolean expected =
          key instanceof dev.moraine.core.keyspace.key.CurrentKey.Entity e
              && e.entity().kind() == kind
              && e.entity().ids()[0] == table;
      assertEquals(expected, selected, key.printable() + " under " + kind + "/" + table);
    }
  }

  @Provide
  Arbitrary<Long> tableIds() {
    return Arbitraries.longs().between(0, 3);
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
