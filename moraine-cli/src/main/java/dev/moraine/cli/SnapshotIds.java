package dev.moraine.cli;

/** Parsing of snapshot ids given on the command line. */
final class SnapshotIds {
  private SnapshotIds() {}

  /**
   * The snapshot id in {@code text}.
   *
   * @throws CliFailure naming {@code option} if it is not an unsigned integer
   */
  static long parse(String option, String text) {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException notAnId) {
      throw new CliFailure(
          option + " must be a snapshot id (an unsigned integer), got '" + text + "'");
    }
  }
}
