package dev.moraine.ducklake.changes;

/**
 * Reads double-quoted names (embedded quotes doubled) out of one entry's value, the way DuckLake
 * reads them: {@code created_schema} takes one quoted name and ignores what follows it; the
 * qualified kinds take exactly {@code "schema"."name"} with nothing after.
 */
final class QuotedName {
  private final String text;
  private final int valueStart;
  private final String value;
  private int pos;

  private QuotedName(String text, int valueStart, String value) {
    this.text = text;
    this.valueStart = valueStart;
    this.value = value;
  }

  static QuotedName reader(String text, int valueStart, String value) {
    return new QuotedName(text, valueStart, value);
  }

  /** One quoted name; anything after the closing quote is ignored, as DuckLake does. */
  String readLenient() {
    return readOne();
  }

  /** {@code "schema"."name"} and nothing else. */
  String[] readQualified() {
    String schema = readOne();
    if (pos >= value.length() || value.charAt(pos) != '.') {
      throw fail("expected '.' between schema and name");
    }
    pos++;
    String name = readOne();
    if (pos < value.length()) {
      throw fail("unexpected text after quoted name");
    }
    return new String[] {schema, name};
  }

  private String readOne() {
    if (pos >= value.length() || value.charAt(pos) != '"') {
      throw fail("expected '\"'");
    }
    pos++;
    StringBuilder name = new StringBuilder();
    while (pos < value.length()) {
      char c = value.charAt(pos);
      pos++;
      if (c == '"') {
        if (pos < value.length() && value.charAt(pos) == '"') {
          name.append('"');
          pos++;
          continue;
        }
        return name.toString();
      }
      name.append(c);
    }
    throw fail("unterminated quoted name");
  }

  private ChangesMadeParseException fail(String problem) {
    return new ChangesMadeParseException(text, valueStart + pos, problem);
  }
}
