package dev.moraine.ducklake.changes;

/** DuckLake's identifier quoting: double quotes around the name, embedded double quotes doubled. */
final class Quoting {
  private Quoting() {}

  static String quote(String name) {
    StringBuilder out = new StringBuilder(name.length() + 2);
    appendQuoted(out, name);
    return out.toString();
  }

  static void appendQuoted(StringBuilder out, String name) {
    out.append('"');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '"') {
        out.append('"');
      }
      out.append(c);
    }
    out.append('"');
  }
}
