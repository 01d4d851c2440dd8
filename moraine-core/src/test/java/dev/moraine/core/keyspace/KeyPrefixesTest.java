package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.key.Subspace;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The exact bytes of every scan prefix (RFC 0002 §6). */
class KeyPrefixesTest {
  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  private static String be(long v) {
    return String.format("%016x", v);
  }

  @Test
  void prefixes() {
    assertEquals("06", hex(Subspace.INLINE.prefix()));
    assertEquals("040205", hex(KeyPrefixes.currentOfKind(EntityKind.COLUMN)));
    assertEquals("040205" + be(7), hex(KeyPrefixes.currentOfTable(EntityKind.COLUMN, 7)));
    assertEquals(
        "040209" + be(7), hex(KeyPrefixes.currentOfTable(EntityKind.FILE_COLUMN_STATS, 7)));
    assertEquals("0505", hex(KeyPrefixes.historyOfKind(EntityKind.COLUMN)));
    assertEquals("0505" + be(7), hex(KeyPrefixes.historyOfTable(EntityKind.COLUMN, 7)));
    assertEquals("0505" + be(7) + be(2), hex(KeyPrefixes.historyOf(new EntityKey.Column(7, 2))));
    assertEquals("0503" + be(7), hex(KeyPrefixes.historyOf(new EntityKey.Table(7))));
    assertEquals("08" + be(7), hex(KeyPrefixes.schemaVersionsOf(7)));
    assertEquals("0602" + be(7), hex(KeyPrefixes.inlineSchemasOf(7)));
    assertEquals("060302" + be(7), hex(KeyPrefixes.inlineChunksOf(7)));
    assertEquals("0608" + be(7), hex(KeyPrefixes.chunkLocatorsOf(7)));
    assertEquals("0609" + be(7), hex(KeyPrefixes.rowTombstonesOf(7)));
    assertEquals("0702" + be(7), hex(KeyPrefixes.indexEntriesOf(7, true)));
    assertEquals("0703" + be(7), hex(KeyPrefixes.indexEntriesOf(7, false)));
  }

  @Test
  void kinds_not_keyed_by_table_have_no_table_prefix() {
    for (EntityKind kind :
        new EntityKind[] {
          EntityKind.SCHEMA,
          EntityKind.TABLE,
          EntityKind.VIEW,
          EntityKind.TAG,
          EntityKind.OPTION_SCOPE,
          EntityKind.MACRO
        }) {
      assertThrows(IllegalArgumentException.class, () -> KeyPrefixes.currentOfTable(kind, 1));
    }
  }
}
