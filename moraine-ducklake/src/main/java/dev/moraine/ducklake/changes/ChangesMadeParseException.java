package dev.moraine.ducklake.changes;

/**
 * Thrown when a {@code changes_made} text is malformed: a missing colon or separating comma, an id
 * that is not a decimal number or exceeds 64 bits, or a name that is not properly quoted.
 *
 * <p>An unknown kind word is <em>not</em> malformed: it parses into {@link
 * ChangeEntry.Unclassifiable}.
 */
public final class ChangesMadeParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int position;
  private final String text;

  /**
   * @param text the whole text being parsed
   * @param position the character index (in {@code text}) where the problem was found
   * @param problem what was wrong there
   */
  public ChangesMadeParseException(String text, int position, String problem) {
    super(
        "malformed changes_made at position "
            + position
            + ": "
            + problem
            + " in "
            + abbreviate(text));
    this.position = position;
    this.text = text;
  }

  /** The character index in the parsed text where the problem was found (may equal its length). */
  public int position() {
    return position;
  }

  /** The whole text that failed to parse. */
  public String text() {
    return text;
  }

  private static String abbreviate(String text) {
    if (text.length() <= 200) {
      return '[' + text + ']';
    }
    return '[' + text.substring(0, 200) + "...] (" + text.length() + " chars)";
  }
}
