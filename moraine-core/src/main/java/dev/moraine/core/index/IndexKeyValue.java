package dev.moraine.core.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One non-null value of an indexed column, in the form the lake's index keys encode it (RFC 0002
 * §10.2): a signed or an unsigned integer of a declared width (dates and timestamps as their
 * integer counts), a 32- or 64-bit float, a boolean, text, or bytes. The form is the Arrow type the
 * value is read as, not the column's DuckLake type: a {@code uuid} read from a Parquet file is 16
 * bytes, but its inlined text is text.
 */
public sealed interface IndexKeyValue {
  /** The raw bytes before framing, whose unsigned order is the value order. */
  byte[] raw();

  /**
   * A signed integer held in {@code widthBytes} bytes (1, 2, 4 or 8).
   *
   * @param value the value, which must fit the width (checked when encoded)
   */
  record Signed(long value, int widthBytes) implements IndexKeyValue {
    /** Big-endian in the width, the sign bit flipped so that negatives sort first. */
    @Override
    public byte[] raw() {
      byte[] out = bigEndian(value, widthBytes);
      out[0] ^= (byte) 0x80;
      return out;
    }

    boolean fits() {
      int bits = 8 * widthBytes;
      return bits == 64 || (value >= -(1L << (bits - 1)) && value < (1L << (bits - 1)));
    }
  }

  /**
   * An unsigned integer held in {@code widthBytes} bytes (1, 2, 4 or 8).
   *
   * @param bits the value's bits (a uint64 above {@code Long.MAX_VALUE} is negative here), which
   *     must fit the width (checked when encoded)
   */
  record Unsigned(long bits, int widthBytes) implements IndexKeyValue {
    /** Plain big-endian in the width. */
    @Override
    public byte[] raw() {
      return bigEndian(bits, widthBytes);
    }

    boolean fits() {
      return widthBytes == 8 || (bits >>> (8 * widthBytes)) == 0;
    }
  }

  /** A 32-bit float. */
  record Float32(float value) implements IndexKeyValue {
    /**
     * Every NaN as {@code 7fc00000}, -0 as +0; then the sign bit flipped for a positive value and
     * every bit for a negative one, so that the unsigned order is the numeric order.
     */
    @Override
    public byte[] raw() {
      int bits = Float.isNaN(value) ? 0x7fc0_0000 : Float.floatToRawIntBits(value + 0.0f);
      int mask = bits < 0 ? -1 : 0x8000_0000;
      return bigEndian(bits ^ mask, 4);
    }
  }

  /** A 64-bit float, encoded as {@link Float32} is (every NaN as {@code 7ff8000000000000}). */
  record Float64(double value) implements IndexKeyValue {
    @Override
    public byte[] raw() {
      long bits =
          Double.isNaN(value) ? 0x7ff8_0000_0000_0000L : Double.doubleToRawLongBits(value + 0.0);
      long mask = bits < 0 ? -1L : 0x8000_0000_0000_0000L;
      return bigEndian(bits ^ mask, 8);
    }
  }

  /** A boolean: one byte, 0 or 1. */
  record Bool(boolean value) implements IndexKeyValue {
    @Override
    public byte[] raw() {
      return new byte[] {(byte) (value ? 1 : 0)};
    }
  }

  /** Text: its UTF-8 bytes. */
  record Text(String value) implements IndexKeyValue {
    public Text {
      java.util.Objects.requireNonNull(value, "value");
    }

    @Override
    public byte[] raw() {
      return value.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Bytes (a blob, a fixed-length binary such as a uuid read from Parquet): as they are. */
  record Bytes(byte[] value) implements IndexKeyValue {
    public Bytes {
      value = value.clone();
    }

    @Override
    public byte[] raw() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Bytes[" + java.util.HexFormat.of().formatHex(value) + "]";
    }
  }

  private static byte[] bigEndian(long v, int width) {
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      throw new IllegalArgumentException("an integer width is 1, 2, 4 or 8 bytes, not " + width);
    }
    byte[] out = new byte[width];
    for (int i = 0; i < width; i++) {
      out[i] = (byte) (v >>> (8 * (width - 1 - i)));
    }
    return out;
  }
}
