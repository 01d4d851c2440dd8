package dev.moraine.core.keyspace;

import java.util.Comparator;

/**
 * Orders strings by their UTF-8 bytes, compared unsigned: the order in which the lake sorts names
 * inside {@code changes_made} (RFC 0002 §12.4). It differs from {@link String#compareTo}, which
 * compares UTF-16 code units: a character above U+FFFF (a surrogate pair, units D800-DFFF) sorts
 * before U+E000-U+FFFF there, and after them here.
 */
public final class Utf8Order {
  /** The comparator; allocation-free. */
  public static final Comparator<String> COMPARATOR = Utf8Order::compare;

  private Utf8Order() {}

  /**
   * Compares by code point, which is exactly the order of the UTF-8 encodings: UTF-8 preserves code
   * point order byte by byte. Unpaired surrogates are compared as the code units they are (they
   * have no UTF-8 form; the format never holds them).
   */
  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
