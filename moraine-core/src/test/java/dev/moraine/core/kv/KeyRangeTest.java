package dev.moraine.core.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyRangeTest {

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  @Test
  void prefix_endIsTheNextPrefix() {
    KeyRange r = KeyRange.prefix(b(0x02, 0x10));
    assertArrayEquals(b(0x02, 0x10), r.start());
    assertArrayEquals(b(0x02, 0x11), r.end());
    assertTrue(r.contains(b(0x02, 0x10)));
    assertTrue(r.contains(b(0x02, 0x10, 0xFF, 0xFF)));
    assertFalse(r.contains(b(0x02, 0x11)));
    assertFalse(r.contains(b(0x02, 0x0F, 0xFF)));
  }

  @Test
  void prefix_trailingFfCarriesIntoEarlierByte() {
    KeyRange r = KeyRange.prefix(b(0x05, 0xFF, 0xFF));
    assertArrayEquals(b(0x06), r.end());
    assertTrue(r.contains(b(0x05, 0xFF, 0xFF, 0x00)));
    assertFalse(r.contains(b(0x06)));
  }

  @Test
  void prefix_allFfIsUnboundedAbove() {
    KeyRange r = KeyRange.prefix(b(0xFF, 0xFF));
    assertNull(r.end());
    assertTrue(r.contains(b(0xFF, 0xFF, 0xFF)));
  }

  @Test
  void prefix_emptyIsRefused() {
    assertThrows(KvInvalidArgumentException.class, () -> KeyRange.prefix(new byte[0]));
  }

  @Test
  void of_startAfterEndIsRefused() {
    assertThrows(KvInvalidArgumentException.class, () -> KeyRange.of(b(2), b(1)));
  }

  @Test
  void of_copiesItsArguments() {
    byte[] start = b(1);
    KeyRange r = KeyRange.of(start, null);
    start[0] = 9;
    assertArrayEquals(b(1), r.start());
    assertEquals(KeyRange.of(b(1), null), r);
  }

  @Test
  void contains_comparesUnsigned() {
    KeyRange r = KeyRange.of(b(0x7F), b(0x81));
    assertTrue(r.contains(b(0x80)));
    assertFalse(r.contains(b(0x01)));
  }
}
