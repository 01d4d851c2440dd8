package dev.moraine.ducklake.changes;

import java.util.Comparator;

/**
 * The total order in which entries are written: DuckLake's group order first, then ids ascending
 * (unsigned) and names in code-unit order within a group. DuckLake itself writes names in hash
 * order, which its parser ignores; a fixed order makes our output deterministic.
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
      return x.schemaName().compareTo(y.schemaName());
    }
    if (a instanceof ChangeEntry.ByQualifiedName x && b instanceof ChangeEntry.ByQualifiedName y) {
      int c = x.schemaName().compareTo(y.schemaName());
      return c != 0 ? c : x.name().compareTo(y.name());
    }
    if (a instanceof ChangeEntry.Unclassifiable x && b instanceof ChangeEntry.Unclassifiable y) {
      int c = x.kindWord().compareTo(y.kindWord());
      return c != 0 ? c : x.value().compareTo(y.value());
    }
    // Entries of one rank always share a shape; this is unreachable for well-formed kinds.
    return a.getClass().getName().compareTo(b.getClass().getName());
  }
}
