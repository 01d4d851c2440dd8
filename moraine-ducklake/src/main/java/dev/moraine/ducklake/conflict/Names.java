package dev.moraine.ducklake.conflict;

/**
 * DuckLake's case-insensitive name comparison: ASCII letters fold, every other character (including
 * non-ASCII letters) must match exactly.
 */
final class Names {
  private Names() {}

  static boolean equalIgnoringAsciiCase(String a, String b) {
    if (a.length() != b.length()) {
      return false;
    }
    for (int i = 0; i < a.length(); i++) {
      if (fold(a.charAt(i)) != fold(b.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static char fold(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }
}
