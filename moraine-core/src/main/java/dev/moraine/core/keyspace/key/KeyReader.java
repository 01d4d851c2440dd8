package dev.moraine.core.keyspace.key;

import java.io.ByteArrayOutputStream;

/**
 * Reads the primitives of the key encoding from one whole key, refusing short input; {@link
 * #finish()} refuses trailing bytes. Failures are {@link MalformedKeyException}, which {@link
 * KeyCodec#decode} turns into the public data error.
 */
final class KeyReader {
  private final byte[] bytes;
  private int pos;

  KeyReader(byte[] bytes) {
    this.bytes = bytes;
  }

  int tag() {
    need(1, "a discriminant");
    return bytes[pos++] & 0xff;
  }

  long u64() {
    need(8, "a 64-bit field");
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (bytes[pos++] & 0xff);
    }
    return v;
  }

  /**
   * A byte string. As the format's own reader does, 01 takes the next byte literally whatever it
   * is, and the first unescaped 00 ends the string.
   */
  byte[] byteString() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      need(1, "the end of a byte string");
      int b = bytes[pos++] & 0xff;
      if (b == 0) {
        return out.toByteArray();
      }
      if (b == 1) {
        need(1, "an escaped byte");
        b = bytes[pos++] & 0xff;
      }
      out.write(b);
    }
  }

  void finish() {
    if (pos != bytes.length) {
      throw new MalformedKeyException((bytes.length - pos) + " trailing byte(s) at offset " + pos);
    }
  }

  MalformedKeyException unknown(String level, int discriminant) {
    return new MalformedKeyException(
        String.format("unknown %s discriminant %02x at offset %d", level, discriminant, pos - 1));
  }

  private void need(int n, String what) {
    if (bytes.length - pos < n) {
      throw new MalformedKeyException("truncated: expected " + what + " at offset " + pos);
    }
  }

  /** A key that is not a valid encoding; internal to the decoder. */
  static final class MalformedKeyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedKeyException(String message) {
      super(message, null, false, false);
    }
  }
}
