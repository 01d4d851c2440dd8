package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.kv.KvIterator;
import java.util.ArrayList;
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

  /** The registered schema versions of each table, read on first use. */
  private final Map<Long, List<Long>> registered = new HashMap<>();

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

  /** See {@link SchemaVersionInfo#beginOf}, over the premise's records of the table. */
  long versionBegin(long tableId, long version) {
    return SchemaVersionInfo.beginOf(s.staged.premise().schemaVersions(tableId), version);
  }

  /**
   * The table's schema versions whose inlined-data table is registered at the premise, ascending:
   * an Arrow schema record and no drop marker (RFC 0002 §9.1), at a version the premise has
   * reached. Read on first use in this run; only the table's schema and drop records are scanned.
   */
  List<Long> registeredVersions(long tableId) {
    return registered.computeIfAbsent(
        tableId,
        t ->
            s.staged
                .premise()
                .loadFor(
                    v -> {
                      Set<Long> dropped = new HashSet<>();
                      try (KvIterator it = v.scanPrefix(KeyPrefixes.inlineSchemaDropsOf(t))) {
                        while (it.hasNext()) {
                          dropped.add(
                              ((InlineKey.SchemaDropped) KeyCodec.decode(it.next().key()))
                                  .schemaVersion());
                        }
                      }
                      long reached = s.premiseRecord.getSchemaVersion();
                      List<Long> out = new ArrayList<>();
                      try (KvIterator it = v.scanPrefix(KeyPrefixes.inlineSchemasOf(t))) {
                        while (it.hasNext()) {
                          long version =
                              ((InlineKey.Schema) KeyCodec.decode(it.next().key())).schemaVersion();
                          if (!dropped.contains(version)
                              && Long.compareUnsigned(version, reached) <= 0) {
                            out.add(version);
                          }
                        }
                      }
                      return List.copyOf(out);
                    }));
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
