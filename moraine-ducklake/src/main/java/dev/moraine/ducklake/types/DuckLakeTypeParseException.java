package dev.moraine.ducklake.types;

/** Thrown when a {@code column_type} value is not a DuckLake 1.0 type name. */
public final class DuckLakeTypeParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String text;

  /**
   * @param text the value that failed to parse
   * @param problem what is wrong with it
   */
  public DuckLakeTypeParseException(String text, String problem) {
    super("not a DuckLake type name: '" + text + "': " + problem);
    this.text = text;
  }

  /** The value that failed to parse. */
  public String text() {
    return text;
  }
}
