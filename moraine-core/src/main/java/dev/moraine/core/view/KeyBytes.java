package dev.moraine.core.view;

import java.util.Arrays;

/**
 * Encoded key bytes as a map key: equal by content, ordered as the store orders keys. The bytes are
 * never changed once wrapped.
 */
public final class KeyBytes implements Comparable<KeyBytes> {
  private final byte[] bytes;

  // The content hash, computed on first use: the views' persistent hash maps ask for it on every
  // lookup. Written without synchronization, as String caches its hash: every thread computes the
  // same value from bytes that never change, and an int is written whole, so a thread sees 0 (and
  // computes it again) or the right value.
  private int hash;

  public KeyBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The wrapped bytes (not a copy: do not change them). */
  public byte[] bytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyBytes other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(bytes);
      hash = h;
    }
    return h;
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
