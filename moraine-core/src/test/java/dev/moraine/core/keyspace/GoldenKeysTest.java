package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The exact bytes of every key kind. The vectors marked "crate" are the golden tests of the Rust
 * implementation (moraine 0.7.0, src/store/key.rs); "rfc" ones are RFC 0002 §13.4; the rest follow
 * from the discriminant rule (declaration index + 2), which the source check confirmed for every
 * kind byte.
 */
class GoldenKeysTest {
  private static String be(long v) {
    return String.format("%016x", v);
  }

  static Map<Key, String> vectors() {
    Map<Key, String> v = new LinkedHashMap<>();
    // crate: golden_sys_keys
    v.put(SysKey.FORMAT, "0202");
    v.put(SysKey.HEAD, "0203");
    v.put(SysKey.MIGRATION, "0204");
    v.put(SysKey.MAINTENANCE_STATUS, "0205");
    // crate: golden_snapshot_key, golden_changelog_key
    v.put(new SnapshotKey(42), "03" + be(42));
    v.put(new ChangelogKey(42), "09" + be(42));
    v.put(new SchemaVersionKey(1, 1), "08" + be(1) + be(1));
    // current entities; crate: file, sort, macro, mapping, index; the others by the rule
    v.put(CurrentKey.of(new EntityKey.Schema(0)), "040202" + be(0));
    v.put(CurrentKey.of(new EntityKey.Table(1)), "040203" + be(1));
    v.put(CurrentKey.of(new EntityKey.View(5)), "040204" + be(5));
    v.put(CurrentKey.of(new EntityKey.Column(1, 2)), "040205" + be(1) + be(2));
    v.put(CurrentKey.of(new EntityKey.Partition(1, 6)), "040206" + be(1) + be(6));
    v.put(CurrentKey.of(new EntityKey.DataFile(1, 2)), "040207" + be(1) + be(2));
    v.put(CurrentKey.of(new EntityKey.DeleteFile(1, 5)), "040208" + be(1) + be(5));
    v.put(CurrentKey.of(new EntityKey.FileColumnStats(1, 4, 2)), "040209" + be(1) + be(4) + be(2));
    v.put(CurrentKey.of(new EntityKey.TableStats(1)), "04020a" + be(1));
    v.put(CurrentKey.of(new EntityKey.TableColumnStats(1, 2)), "04020b" + be(1) + be(2));
    v.put(CurrentKey.of(new EntityKey.Tag(1)), "04020c" + be(1));
    v.put(CurrentKey.of(EntityKey.OptionScope.global()), "04020d" + be(0) + be(0));
    v.put(CurrentKey.of(new EntityKey.Sort(7, 9)), "04020e" + be(7) + be(9));
    v.put(CurrentKey.of(new EntityKey.Macro(3)), "04020f" + be(3));
    v.put(CurrentKey.of(new EntityKey.Mapping(4, 21)), "040210" + be(4) + be(21));
    v.put(CurrentKey.of(new EntityKey.IndexDefinition(4, 7)), "040211" + be(4) + be(7));
    // crate: golden_gcfile_key
    v.put(new CurrentKey.ScheduledDeletion(5), "0403" + be(5));
    // history; crate: file and macro; rfc: table and column
    v.put(new HistoryKey(new EntityKey.DataFile(1, 2), 9), "0507" + be(1) + be(2) + be(9));
    v.put(new HistoryKey(new EntityKey.Macro(3), 9), "050f" + be(3) + be(9));
    v.put(new HistoryKey(new EntityKey.Table(1), 5), "0503" + be(1) + be(5));
    v.put(new HistoryKey(new EntityKey.Column(1, 2), 5), "0505" + be(1) + be(2) + be(5));
    // inline; crate: ins, file delete table, schema dropped, chunk range, chunk locator
    v.put(new InlineKey.Schema(1, 0), "0602" + be(1) + be(0));
    v.put(
        InlineKey.Record.live(new InlineOp.InsertChunk(7, 3, 11, 0)),
        "060302" + be(7) + be(3) + be(11) + be(0));
    v.put(InlineKey.Record.live(new InlineOp.LegacyInlineDelete(7, 9)), "060303" + be(7) + be(9));
    v.put(
        InlineKey.Record.live(new InlineOp.FileDelete(7, 2, 9)), "060304" + be(7) + be(2) + be(9));
    v.put(
        new InlineKey.Record(InlineKey.Form.ARCHIVED, new InlineOp.InsertChunk(1, 0, 3, 0)),
        "060402" + be(1) + be(0) + be(3) + be(0));
    v.put(new InlineKey.FileDeleteTable(7), "0605" + be(7));
    v.put(new InlineKey.LegacyChunkRange(7, 29), "0606" + be(7) + be(29));
    v.put(new InlineKey.SchemaDropped(7, 3), "0607" + be(7) + be(3));
    v.put(
        new InlineKey.ChunkLocator(7, 29, 3, 11, 2),
        "0608" + be(7) + be(29) + be(3) + be(11) + be(2));
    v.put(new InlineKey.RowTombstone(1, 4, 6), "0609" + be(1) + be(4) + be(6));
    // crate: golden_index_multi_value_framing_and_trailing_row_id. The canonical value of one
    // ascending non-null BLOB 00 01 41 is 00 | 01 00 01 01 41 00; the key escapes it once more.
    v.put(
        new IndexEntryKey.Multi(1, HexFormat.of().parseHex("0001000101410" + "0"), 1L << 56),
        "0703"
            + be(1)
            + "0100"
            + "0101"
            + "0100"
            + "0101"
            + "0101"
            + "41"
            + "0100"
            + "00"
            + be(1L << 56));
    v.put(
        new IndexEntryKey.Unique(1, HexFormat.of().parseHex("00")), "0702" + be(1) + "0100" + "00");
    return v;
  }

  @Test
  void every_key_kind_encodes_and_decodes_exactly() {
    vectors()
        .forEach(
            (key, hex) -> {
              assertEquals(hex, HexFormat.of().formatHex(KeyCodec.encode(key)), key.printable());
              assertEquals(key, KeyCodec.decode(HexFormat.of().parseHex(hex)), hex);
            });
  }

  @Test
  void the_vectors_cover_every_entity_kind_in_current_and_every_versioned_one_in_history() {
    Set<EntityKind> current = EnumSet.noneOf(EntityKind.class);
    for (Key k : vectors().keySet()) {
      if (k instanceof CurrentKey.Entity e) {
        current.add(e.entity().kind());
      }
    }
    assertEquals(EnumSet.allOf(EntityKind.class), current);
  }

  /** crate: golden_arch_kinds_are_distinct_from_live. */
  @Test
  void archived_inline_keys_differ_from_live_only_in_the_second_byte_and_sort_after() {
    for (InlineOp op :
        new InlineOp[] {
          new InlineOp.InsertChunk(7, 3, 11, 0),
          new InlineOp.LegacyInlineDelete(7, 9),
          new InlineOp.FileDelete(7, 2, 9)
        }) {
      byte[] live = new InlineKey.Record(InlineKey.Form.LIVE, op).encode();
      byte[] arch = new InlineKey.Record(InlineKey.Form.ARCHIVED, op).encode();
      assertEquals(0x03, live[1]);
      assertEquals(0x04, arch[1]);
      live[1] = arch[1];
      assertEquals(HexFormat.of().formatHex(live), HexFormat.of().formatHex(arch));
      assertTrue(
          java.util.Arrays.compareUnsigned(
                  new InlineKey.Record(InlineKey.Form.LIVE, op).encode(), arch)
              < 0);
    }
  }

  @Test
  void printable_forms() {
    assertEquals("sys/head", SysKey.HEAD.printable());
    assertEquals("current/column/1/2", CurrentKey.of(new EntityKey.Column(1, 2)).printable());
    assertEquals(
        "history/table/18446744073709551615@5",
        new HistoryKey(new EntityKey.Table(-1), 5).printable());
    assertEquals("inline/live/insert/7/3/11/0", KeyCodec.printable(vectorOf("060302")));
    assertEquals("x'0a'", KeyCodec.printable(new byte[] {0x0a}));
  }

  private static byte[] vectorOf(String prefix) {
    for (Map.Entry<Key, String> e : vectors().entrySet()) {
      if (e.getValue().startsWith(prefix)) {
        return HexFormat.of().parseHex(e.getValue());
      }
    }
    throw new AssertionError(prefix);
  }
}
