package dev.moraine.core.kv;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A half-open range of keys {@code [start, end)} in unsigned lexicographic order. A null bound is
 * unbounded on that side. Instances copy the arrays they are given.
 */
public final class KeyRange {
  private static final KeyRange ALL = new KeyRange(null, null);

  private final byte[] start;
  private final byte[] end;

  private KeyRange(byte[] start, byte[] end) {
    this.start = start;
    this.end = end;
  }

  /** Every key. */
  public static KeyRange all() {
    return ALL;
  }

  /**
   * Keys from {@code start} inclusive to {@code end} exclusive; either may be null for unbounded.
   *
   * @throws KvInvalidArgumentException if both bounds are given and {@code start > end}
   */
  public static KeyRange of(byte[] start, byte[] end) {
    if (start != null && end != null && Arrays.compareUnsigned(start, end) > 0) {
      throw new KvInvalidArgumentException("range start is after its end");
    }
    return new KeyRange(copy(start), copy(end));
  }

  /**
   * Every key that begins with {@code prefix}.
   *
   * @throws KvInvalidArgumentException if the prefix is empty (use {@link #all()})
   */
  public static KeyRange prefix(byte[] prefix) {
    if (prefix == null || prefix.length == 0) {
      throw new KvInvalidArgumentException("prefix must not be empty");
    }
    return new KeyRange(prefix.clone(), successorOfPrefix(prefix));
  }

  /**
   * The smallest key greater than every key starting with {@code prefix}, or null if there is none
   * (the prefix is all 0xFF bytes).
   */
  static byte[] successorOfPrefix(byte[] prefix) {
    int i = prefix.length - 1;
    while (i >= 0 && prefix[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return null;
    }
    byte[] next = Arrays.copyOf(prefix, i + 1);
    next[i]++;
    return next;
  }

  /** The inclusive lower bound, or null if unbounded. Returns a copy. */
  public byte[] start() {
    return copy(start);
  }

  /** The exclusive upper bound, or null if unbounded. Returns a copy. */
  public byte[] end() {
    return copy(end);
  }

  /** True when {@code key} lies inside the range. */
  public boolean contains(byte[] key) {
    return (start == null || Arrays.compareUnsigned(key, start) >= 0)
        && (end == null || Arrays.compareUnsigned(key, end) < 0);
  }

  private static byte[] copy(byte[] b) {
    return b == null ? null : b.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange other
        && Arrays.equals(start, other.start)
        && Arrays.equals(end, other.end);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(start) + Arrays.hashCode(end);
  }

  @Override
  public String toString() {
    HexFormat hex = HexFormat.of();
    return "["
        + (start == null ? "-inf" : hex.formatHex(start))
        + ", "
        + (end == null ? "+inf" : hex.formatHex(end))
        + ")";
  }
}
