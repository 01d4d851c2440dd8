package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the inline verbs of one closure run remember between calls: the premise's inline keys per
 * table (read once), the schema version each table's chunks went under, the row ids inlined, and
 * the tables deleted from inline or flushed. The insert, delete and flush verbs check one another's
 * calls through it (a flush refuses a table this run inlines into, and the reverse).
 *
 * <p>Confined to the thread running the closure, like {@link VerbState}.
 */
public final class InlineRun {
  private final VerbState s;
  private final Map<Long, InlineTableState> premiseState = new HashMap<>();

  /** The schema version each table's staged chunks were written under. */
  final Map<Long, Long> insertedVersions = new HashMap<>();

  /** Row ids this run inlined, per table: [start, end) ranges. */
  final Map<Long, List<long[]>> insertedRanges = new HashMap<>();

  final Set<Long> deletedFrom = new HashSet<>();
  final Set<Long> flushed = new HashSet<>();

  public InlineRun(VerbState state) {
    this.s = state;
  }

  /** The premise's inline keys of {@code tableId}, read on first use in this run. */
  InlineTableState premiseState(long tableId) {
    return premiseState.computeIfAbsent(tableId, t -> InlineTableState.read(s.staged.premise(), t));
  }

  /**
   * The snapshot the table's schema version {@code version} began at: that of its schema-versions
   * record, or of the newest one below it (a version the Rust crate inlined under without one); 0
   * when the premise holds none.
   */
  long versionBegin(long tableId, long version) {
    long begin = 0;
    for (SchemaVersionInfo v : s.staged.premise().schemaVersions(tableId)) {
      if (Long.compareUnsigned(v.schemaVersion(), version) <= 0) {
        begin = v.beginSnapshot();
      }
    }
    return begin;
  }

  /** Refuses {@code what} on a table this run flushes. */
  void refuseAfterFlush(long tableId, String what) {
    if (flushed.contains(tableId)) {
      throw new InvalidArgumentException(
          "this commit flushes table "
              + Long.toUnsignedString(tableId)
              + "'s inlined data; "
              + what
              + " it in another commit");
    }
  }
}
