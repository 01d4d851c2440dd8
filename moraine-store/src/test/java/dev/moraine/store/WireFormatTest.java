package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvLimits;
import dev.moraine.core.kv.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The byte layouts shared with the native crate. */
class WireFormatTest {

  @Test
  void encodesPutsAndDeletesInOrder() {
    WriteBatch batch = new WriteBatch().put(new byte[] {1}, new byte[] {9, 8});
    batch.delete(new byte[] {2, 3});
    byte[] encoded = WireFormat.encode(batch);
    ByteBuffer expected = ByteBuffer.allocate(1 + 4 + 1 + 4 + 2 + 1 + 4 + 2);
    expected.put((byte) 0).putInt(1).put((byte) 1).putInt(2).put(new byte[] {9, 8});
    expected.put((byte) 1).putInt(2).put(new byte[] {2, 3});
    assertArrayEquals(expected.array(), encoded);
  }

  @Test
  void refusesAnEmptyBatch() {
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encode(new WriteBatch()));
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encode(null));
  }

  @Test
  void encodedSizesDoNotOverflow() {
    assertEquals(1 + 4 + 3, WireFormat.encodedSize(3, -1));
    assertEquals(1 + 4 + 3 + 4 + 2, WireFormat.encodedSize(3, 2));
    long huge = WireFormat.encodedSize(KvLimits.MAX_KEY_BYTES, KvLimits.MAX_VALUE_BYTES);
    assertEquals(1L + 4 + KvLimits.MAX_KEY_BYTES + 4 + KvLimits.MAX_VALUE_BYTES, huge);
    // A put whose value is as large as a value may be cannot be encoded with its header.
    long largest = WireFormat.encodedSize(1, KvLimits.MAX_VALUE_BYTES);
    assertTrue(largest > Integer.MAX_VALUE - 8);
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.requireEncodable(largest));
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.requireEncodable(huge));
    WireFormat.requireEncodable(Integer.MAX_VALUE - 8);
  }

  @Test
  void decodesRunsOfEntries() {
    ByteBuffer run = ByteBuffer.allocate(4 + 1 + 4 + 0 + 4 + 2 + 4 + 1);
    run.putInt(1).put((byte) 'a').putInt(0);
    run.putInt(2).put(new byte[] {'b', 'c'}).putInt(1).put((byte) 'x');
    ArrayDeque<KeyValue> out = new ArrayDeque<>();
    WireFormat.decodeEntries(run.array(), out);
    assertEquals(2, out.size());
    assertEquals(new KeyValue(new byte[] {'a'}, new byte[0]), out.removeFirst());
    assertEquals(new KeyValue(new byte[] {'b', 'c'}, new byte[] {'x'}), out.removeFirst());
  }

  // ------------------------------------------------------------------ multi-get and batch lists

  @Test
  void encodesKeysAsLengthThenBytes() {
    byte[] encoded = WireFormat.encodeKeys(List.of(new byte[] {7}, new byte[] {8, 9}));
    ByteBuffer expected = ByteBuffer.allocate(4 + 1 + 4 + 2);
    expected.putInt(1).put((byte) 7).putInt(2).put(new byte[] {8, 9});
    assertArrayEquals(expected.array(), encoded);
    assertEquals(0, WireFormat.encodeKeys(List.of()).length);
  }

  @Test
  void refusesBadKeyLists() {
    List<byte[]> withNull = new ArrayList<>();
    withNull.add(null);
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encodeKeys(null));
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encodeKeys(withNull));
    assertThrows(
        KvInvalidArgumentException.class, () -> WireFormat.encodeKeys(List.of(new byte[0])));
    assertThrows(
        KvInvalidArgumentException.class,
        () -> WireFormat.encodeKeys(List.of(new byte[KvLimits.MAX_KEY_BYTES + 1])));
  }

  @Test
  void decodesValuesWithAbsentKeysAsNull() {
    ByteBuffer encoded = ByteBuffer.allocate(4 * 3 + 2);
    encoded.putInt(2).putInt(-1).putInt(0).put(new byte[] {'x', 'y'});
    List<byte[]> values = WireFormat.decodeValues(encoded.array(), 3);
    assertEquals(3, values.size());
    assertArrayEquals(new byte[] {'x', 'y'}, values.get(0));
    assertNull(values.get(1));
    assertArrayEquals(new byte[0], values.get(2));
  }

  @Test
  void encodesBatchListsAsLengthThenBatch() {
    WriteBatch one = new WriteBatch().put(new byte[] {1}, new byte[] {2});
    WriteBatch two = new WriteBatch().delete(new byte[] {3});
    byte[] encoded = WireFormat.encodeBatches(List.of(one, two));
    byte[] first = WireFormat.encode(one);
    byte[] second = WireFormat.encode(two);
    ByteBuffer expected = ByteBuffer.allocate(4 + first.length + 4 + second.length);
    expected.putInt(first.length).put(first).putInt(second.length).put(second);
    assertArrayEquals(expected.array(), encoded);
  }

  @Test
  void refusesBadBatchLists() {
    WriteBatch good = new WriteBatch().put(new byte[] {1}, new byte[] {2});
    List<WriteBatch> withNull = new ArrayList<>(List.of(good));
    withNull.add(null);
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encodeBatches(null));
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encodeBatches(List.of()));
    assertThrows(KvInvalidArgumentException.class, () -> WireFormat.encodeBatches(withNull));
    assertThrows(
        KvInvalidArgumentException.class,
        () -> WireFormat.encodeBatches(List.of(good, new WriteBatch())));
  }
}
