package dev.moraine.core.keyspace.key;

import java.util.Arrays;

/**
 * Writes the primitives of the key encoding (RFC 0002 §3): one-byte discriminants, big-endian
 * 64-bit fields, and escaped, terminated byte strings. Not thread-safe; one per encoding.
 */
final class KeyWriter {
  private byte[] buf = new byte[32];
  private int len;

  void tag(int discriminant) {
    ensure(1);
    buf[len++] = (byte) discriminant;
  }

  void u64(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[len++] = (byte) (value >>> shift);
    }
  }

  /** A byte string: 00 becomes 01 00, 01 becomes 01 01, every other byte is kept; then 00. */
  void byteString(byte[] content) {
    ensure(2 * content.length + 1);
    for (byte b : content) {
      if (b == 0 || b == 1) {
        buf[len++] = 1;
      }
      buf[len++] = b;
    }
    buf[len++] = 0;
  }

  byte[] toBytes() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
