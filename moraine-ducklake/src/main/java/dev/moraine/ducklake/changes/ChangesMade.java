package dev.moraine.ducklake.changes;

/**
 * Reads and writes the {@code changes_made} column of {@code ducklake_snapshot_changes}.
 *
 * <p>The text is a comma-separated list of {@code kind:value} entries. {@link #emit(ChangeSet)}
 * writes exactly what DuckLake 1.0 writes for the same changes (writer order, quoting, decimal
 * ids); {@link #parse(String)} accepts everything DuckLake's own parser accepts, and more: an
 * unknown kind word becomes an {@link ChangeEntry.Unclassifiable} entry instead of an error.
 *
 * <p>Round trip: for every set {@code x} that {@code emit} accepts, {@code parse(emit(x))} equals
 * {@code x}. The legacy alias {@code flushed_inlined} parses into {@link ChangeKind#INLINE_FLUSH},
 * so it is re-emitted as {@code inline_flush}; legacy {@code compacted_table} parses but cannot be
 * emitted.
 */
public final class ChangesMade {
  private ChangesMade() {}

  /**
   * Parses a {@code changes_made} value.
   *
   * @param text the column value; {@code null} or empty means no changes
   * @return the entries, as a set
   * @throws ChangesMadeParseException if the text is malformed (see the exception for what that
   *     covers)
   */
  public static ChangeSet parse(String text) {
    if (text == null || text.isEmpty()) {
      return ChangeSet.empty();
    }
    return new ChangesMadeParser(text).parse();
  }

  /**
   * Writes a change set the way DuckLake writes it.
   *
   * @param changes the set to write
   * @return the text, or {@code null} (SQL NULL) for the empty set
   * @throws IllegalArgumentException if the set holds a legacy or unclassifiable entry, which
   *     DuckLake never writes
   */
  public static String emit(ChangeSet changes) {
    if (changes.isEmpty()) {
      return null;
    }
    StringBuilder out = new StringBuilder(16 * changes.size());
    for (ChangeEntry entry : changes.entries()) {
      if (!entry.kind().emittable()) {
        throw new IllegalArgumentException(
            "refusing to emit " + entry.kind() + " entry " + entry.raw());
      }
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(entry.raw());
    }
    return out.toString();
  }
}
