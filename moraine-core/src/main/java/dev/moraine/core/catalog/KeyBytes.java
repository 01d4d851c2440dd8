package dev.moraine.core.catalog;

import java.util.Arrays;

/** Encoded key bytes as a map key: equal by content, ordered as the store orders keys. */
record KeyBytes(byte[] bytes) implements Comparable<KeyBytes> {
  @Override
  public boolean equals(Object o) {
    return o instanceof KeyBytes other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public int compareTo(KeyBytes o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  /** Whether these bytes start with {@code prefix}. */
  boolean startsWith(byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  @Override
  public String toString() {
    return java.util.HexFormat.of().formatHex(bytes);
  }
}
