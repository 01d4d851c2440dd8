package dev.moraine.ducklake.changes;

import java.util.Comparator;

/**
 * The total order in which entries are written: DuckLake's group order first, then ids ascending
 * (unsigned) and names in UTF-8 byte order within a group. DuckLake itself writes names in hash
 * order, which its parser ignores; a fixed order makes our output deterministic, and UTF-8 byte
 * order (which is code point order) is the one the lake's other writer uses, so both emit the same
 * text. It differs from {@link String#compareTo}, which compares UTF-16 code units: there a
 * character above U+FFFF (a surrogate pair, starting at 0xD800) sorts before U+E000..U+FFFF.
 */
final class WriterOrder implements Comparator<ChangeEntry> {
  static final WriterOrder INSTANCE = new WriterOrder();

  private WriterOrder() {}

  @Override
  public int compare(ChangeEntry a, ChangeEntry b) {
    int c = Integer.compare(a.kind().writerRank(), b.kind().writerRank());
    if (c != 0) {
      return c;
    }
    c = compareWithinGroup(a, b);
    if (c != 0) {
      return c;
    }
    return a.kind().compareTo(b.kind());
  }

  private static int compareWithinGroup(ChangeEntry a, ChangeEntry b) {
    if (a instanceof ChangeEntry.ById x && b instanceof ChangeEntry.ById y) {
      return Long.compareUnsigned(x.id(), y.id());
    }
    if (a instanceof ChangeEntry.BySchemaName x && b instanceof ChangeEntry.BySchemaName y) {
      return byCodePoint(x.schemaName(), y.schemaName());
    }
    if (a instanceof ChangeEntry.ByQualifiedName x && b instanceof ChangeEntry.ByQualifiedName y) {
      int c = byCodePoint(x.schemaName(), y.schemaName());
      return c != 0 ? c : byCodePoint(x.name(), y.name());
    }
    if (a instanceof ChangeEntry.Unclassifiable x && b instanceof ChangeEntry.Unclassifiable y) {
      int c = byCodePoint(x.kindWord(), y.kindWord());
      return c != 0 ? c : byCodePoint(x.value(), y.value());
    }
    // Entries of one rank always share a shape; this is unreachable for well-formed kinds.
    return a.getClass().getName().compareTo(b.getClass().getName());
  }

  /** Compares by Unicode code point, which is the order of the strings' UTF-8 encodings. */
  static int byCodePoint(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
