package dev.moraine.ducklake.changes;

/**
 * One pass over a {@code changes_made} text, following DuckLake's parser step by step: the kind
 * runs to the first colon (commas included), the value to the first comma outside double quotes,
 * and entries are separated by single commas (a trailing comma is accepted).
 */
final class ChangesMadeParser {
  private final String text;
  private int pos;
  private final ChangeSet.Builder out = ChangeSet.builder();

  ChangesMadeParser(String text) {
    this.text = text;
  }

  ChangeSet parse() {
    while (pos < text.length()) {
      parseEntry();
      if (pos >= text.length()) {
        break;
      }
      if (text.charAt(pos) != ',') {
        // Unreachable: a value always stops at a comma or the end. Kept as a guard.
        throw fail(pos, "expected ',' between entries");
      }
      pos++;
    }
    return out.build();
  }

  private void parseEntry() {
    int kindStart = pos;
    int colon = text.indexOf(':', pos);
    if (colon < 0) {
      throw fail(text.length(), "expected ':' after change kind");
    }
    String word = text.substring(kindStart, colon);
    pos = colon + 1;
    int valueStart = pos;
    String value = scanValue();
    ChangeKind kind = ChangeKind.fromToken(word).orElse(ChangeKind.UNCLASSIFIABLE);
    switch (kind.shape()) {
      case ID -> out.add(new ChangeEntry.ById(kind, DecimalId.parse(text, valueStart, value)));
      case SCHEMA_NAME ->
          out.add(
              new ChangeEntry.BySchemaName(
                  QuotedName.reader(text, valueStart, value).readLenient()));
      case QUALIFIED_NAME -> {
        String[] parts = QuotedName.reader(text, valueStart, value).readQualified();
        out.add(new ChangeEntry.ByQualifiedName(kind, parts[0], parts[1]));
      }
      case RAW -> out.add(new ChangeEntry.Unclassifiable(word, value));
      default -> throw new IllegalStateException(kind.toString());
    }
  }

  private String scanValue() {
    int start = pos;
    boolean inQuotes = false;
    for (; pos < text.length(); pos++) {
      char c = text.charAt(pos);
      if (!inQuotes && c == ',') {
        break;
      }
      if (c == '"') {
        inQuotes = !inQuotes;
      }
    }
    return text.substring(start, pos);
  }

  private ChangesMadeParseException fail(int at, String problem) {
    return new ChangesMadeParseException(text, at, problem);
  }
}
