package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.IndexEntryValues;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.keyspace.value.ValueFrame;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Damaged bytes give a {@link KeyspaceDataException} naming the key, never a different value. Uses
 * every golden record as the undamaged starting point.
 */
class CorruptValuesTest {
  @Test
  void a_short_header_is_refused_for_every_kind() {
    GoldenRecords.all()
        .forEach(
            (name, s) -> {
              byte[] good = ValueCodec.encode(s.key(), s.value());
              for (int len = 0; len < ValueFrame.HEADER_LENGTH; len++) {
                byte[] cut = Arrays.copyOf(good, len);
                KeyspaceDataException e =
                    assertThrows(
                        KeyspaceDataException.class, () -> ValueCodec.decode(s.key(), cut));
                assertEquals(s.key().printable(), e.key(), name);
                assertTrue(e.getMessage().contains(s.key().printable()), e.getMessage());
              }
            });
  }

  @Test
  void another_magic_or_a_newer_encoding_version_is_refused() {
    GoldenRecords.all()
        .forEach(
            (name, s) -> {
              byte[] good = ValueCodec.encode(s.key(), s.value());
              for (int i = 0; i < 4; i++) {
                byte[] bad = good.clone();
                bad[i] ^= 0x20;
                KeyspaceDataException e =
                    assertThrows(
                        KeyspaceDataException.class, () -> ValueCodec.decode(s.key(), bad));
                assertTrue(e.getMessage().contains("magic"), e.getMessage());
              }
              for (int version : new int[] {1, 2, 0x7f, 0xff}) {
                byte[] bad = good.clone();
                bad[4] = (byte) version;
                KeyspaceDataException e =
                    assertThrows(
                        KeyspaceDataException.class, () -> ValueCodec.decode(s.key(), bad));
                assertTrue(e.getMessage().contains("encoding version " + version), e.getMessage());
              }
            });
  }

  /**
   * Every cut of every golden value inside the payload either is refused or decodes to exactly the
   * message those remaining bytes encode (a cut at a field boundary is itself a well-formed shorter
   * value; the frame carries no length to tell, see RFC 0002 §7). A cut inside a field is always
   * refused.
   */
  @Test
  void a_cut_payload_is_refused_or_read_for_what_it_says() {
    int refused = 0;
    int cuts = 0;
    for (GoldenRecords.Sample s : GoldenRecords.all().values()) {
      byte[] good = ValueCodec.encode(s.key(), s.value());
      for (int len = ValueFrame.HEADER_LENGTH; len < good.length; len++) {
        cuts++;
        byte[] cut = Arrays.copyOf(good, len);
        try {
          Message read = ValueCodec.decode(s.key(), cut);
          assertArrayEquals(cut, ValueFrame.frame(read), s.key().printable() + " cut at " + len);
        } catch (KeyspaceDataException e) {
          assertEquals(s.key().printable(), e.key());
          refused++;
        }
      }
    }
    // Most cuts land inside a field; a test that refused nothing would prove nothing.
    assertTrue(refused > cuts / 2, refused + " of " + cuts);
  }

  @Test
  void a_field_format_9_does_not_define_is_refused_even_nested() {
    byte[] head = ValueCodec.encode(SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(3).build());
    byte[] withField99 = concat(head, new byte[] {(byte) 0x98, 0x06, 0x01});
    KeyspaceDataException e =
        assertThrows(
            KeyspaceDataException.class, () -> ValueCodec.decode(SysKey.HEAD, withField99));
    assertEquals("sys/head", e.key());

    // A column tag (field 14) carrying an unknown field 9.
    CurrentKey key = CurrentKey.of(new EntityKey.Column(0, 0));
    byte[] nested = ValueFrame.magic();
    byte[] column = concat(nested, new byte[] {0, 0x72, 0x02, 0x48, 0x01});
    KeyspaceDataException n =
        assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(key, column));
    assertTrue(n.getMessage().contains("ColumnValue.tags"), n.getMessage());
  }

  @Test
  void a_string_that_is_not_utf8_is_refused() {
    CurrentKey key = CurrentKey.of(new EntityKey.Table(0));
    // table_name (field 6) = ff fe
    byte[] bad = concat(ValueFrame.magic(), new byte[] {0, 0x32, 0x02, (byte) 0xff, (byte) 0xfe});
    KeyspaceDataException e =
        assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(key, bad));
    assertEquals("current/table/0", e.key());
  }

  @Test
  void a_value_whose_ids_disagree_with_its_key_is_refused() {
    // A head's bytes (08 2c 10 2e) parse as a ColumnValue with column_id 44, begin_snapshot 46.
    byte[] head =
        ValueCodec.encode(
            SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(44).setBatchSeq(46).build());
    CurrentKey column = CurrentKey.of(new EntityKey.Column(0, 2));
    KeyspaceDataException e =
        assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(column, head));
    assertTrue(e.getMessage().contains("column_id is 44; the key says 2"), e.getMessage());

    TableValue table = TableValue.newBuilder().setTableId(1).setBeginSnapshot(1).build();
    byte[] framed = ValueFrame.frame(table);
    var history = new dev.moraine.core.keyspace.key.HistoryKey(new EntityKey.Table(1), 5);
    KeyspaceDataException h =
        assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(history, framed));
    assertTrue(h.getMessage().contains("end_snapshot is absent"), h.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(history, table));
  }

  @Test
  void an_inline_schema_record_holds_a_schema_or_a_reference_not_both_nor_neither() {
    InlineKey.Schema key = new InlineKey.Schema(1, 1);
    byte[] neither = ValueFrame.frame(InlineSchemaValue.getDefaultInstance());
    assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(key, neither));
    byte[] both =
        ValueFrame.frame(
            InlineSchemaValue.newBuilder()
                .setArrowSchema(com.google.protobuf.ByteString.copyFrom(new byte[] {1}))
                .setSameAsVersion(0)
                .build());
    assertThrows(KeyspaceDataException.class, () -> ValueCodec.decode(key, both));
  }

  @Test
  void encode_refuses_a_message_of_another_kind() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ValueCodec.encode(SysKey.HEAD, ColumnValue.getDefaultInstance()));
    assertThrows(
        IllegalArgumentException.class,
        () -> ValueCodec.decode(SysKey.HEAD, new byte[0], ColumnValue.class));
  }

  @Test
  void index_entry_values_are_unframed_and_checked() {
    IndexEntryKey.Unique unique = new IndexEntryKey.Unique(1, new byte[] {0});
    assertEquals(
        "0100000000000000", HexFormat.of().formatHex(IndexEntryValues.uniqueRow(1L << 56)));
    assertEquals(
        1L << 56, IndexEntryValues.decodeUniqueRow(unique, IndexEntryValues.uniqueRow(1L << 56)));
    assertEquals(-2L, IndexEntryValues.decodeUniqueRow(unique, IndexEntryValues.uniqueRow(-2L)));
    for (int len : new int[] {0, 7, 9}) {
      KeyspaceDataException e =
          assertThrows(
              KeyspaceDataException.class,
              () -> IndexEntryValues.decodeUniqueRow(unique, new byte[len]));
      assertEquals("index/unique/1/x'00'", e.key());
    }
    IndexEntryKey.Multi multi = new IndexEntryKey.Multi(1, new byte[] {0}, 3);
    IndexEntryValues.checkMulti(multi, IndexEntryValues.multi());
    assertThrows(
        KeyspaceDataException.class, () -> IndexEntryValues.checkMulti(multi, new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> ValueCodec.decode(multi, new byte[0]));
  }

  @Test
  void unknown_discriminants_are_refused_at_every_level() {
    String[] bad = {
      "00", "01", "0a", "ff", "0201", "0206", "0401", "0404", "040201", "040212", "0501", "0512",
      "0601", "060a", "060301", "060305", "060405", "0701", "0704"
    };
    for (String hex : bad) {
      byte[] bytes = HexFormat.of().parseHex(hex + "00".repeat(40));
      KeyspaceDataException e =
          assertThrows(KeyspaceDataException.class, () -> KeyCodec.decode(bytes), hex);
      assertTrue(e.getMessage().contains("unknown"), hex + ": " + e.getMessage());
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
