package dev.moraine.core.verb;

import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.view.Records;
import java.util.Collection;
import java.util.List;

/**
 * Refuses the verbs that would leave a table's equality indexes wrong (RFC 0002 §10.1): the verbs
 * that add, remove or move rows of a table with a live index definition whose entries this library
 * cannot derive (a data file's rows, whose values the core does not read; any row while an index is
 * not ready), and dropping and retyping a column an index names. The inline verbs keep the entries
 * of ready indexes themselves ({@link IndexUpkeep}). The refusal is an {@link
 * IndexedTableException}, thrown before the verb stages anything.
 *
 * <p>The definitions are those this attempt sees: the premise's, with those {@code createIndex} and
 * {@code dropIndex} staged; {@code dropTable} ends a table's with it, after which every verb on the
 * table is refused as not found.
 */
public final class IndexGuard {
  private IndexGuard() {}

  /** Refuses {@code verb}, which changes the rows of {@code tableId}, if the table is indexed. */
  static void refuseRowChange(VerbState s, long tableId, String verb) {
    List<IndexInfo> live = liveIndexes(s, tableId);
    if (!live.isEmpty()) {
      throw refusal(s, tableId, verb, live);
    }
  }

  /**
   * The live indexes of {@code tableId} whose entries {@code verb} keeps itself (RFC 0002 §10.2),
   * in index-id order; none for a table without live indexes, a table this commit created, or a
   * missing one. Refuses the verb if one of them is not ready (a staged build under way, its
   * maintenance deferred behind SQL writes, or poisoned by a duplicate): those follow rules of the
   * Rust implementation's index builder that this library does not run), or names a column that is
   * not a live top-level one.
   */
  static List<IndexInfo> maintainedIndexes(VerbState s, long tableId, String verb) {
    List<IndexInfo> live = liveIndexes(s, tableId);
    if (live.isEmpty()) {
      return live;
    }
    java.util.Set<Long> topLevel = new java.util.HashSet<>();
    for (ColumnValue c : s.columnRecords(tableId)) {
      if (!c.hasParentColumn()) {
        topLevel.add(c.getColumnId());
      }
    }
    // An index over a struct member, or naming a column that is gone, is not one an inlined row's
    // cells give values for.
    List<IndexInfo> notReady =
        live.stream().filter(i -> !ready(i) || !topLevel.containsAll(i.columnIds())).toList();
    if (!notReady.isEmpty()) {
      throw refusal(s, tableId, verb, notReady);
    }
    return live;
  }

  /** Ready: serving lookups and enforcing uniqueness (no build state, not poisoned). */
  static boolean ready(IndexInfo index) {
    return index.buildState().isEmpty() && !index.poisoned().orElse(false);
  }

  /**
   * Refuses {@code verb}, which drops or retypes the columns {@code columnIds} of {@code tableId},
   * if a live index of the table names one of them: an index entry is encoded by its column's type,
   * and a definition naming a dropped column could not be maintained.
   */
  static void refuseColumnChange(
      VerbState s, long tableId, Collection<Long> columnIds, String verb) {
    List<IndexInfo> naming =
        liveIndexes(s, tableId).stream()
            .filter(i -> i.columnIds().stream().anyMatch(columnIds::contains))
            .toList();
    if (!naming.isEmpty()) {
      throw refusal(s, tableId, verb, naming);
    }
  }

  /**
   * The live index definitions of a table as this attempt sees them (the premise's, with those this
   * commit created or dropped), by id. None for a missing table, whose verb then reports it as not
   * found.
   */
  static List<IndexInfo> liveIndexes(VerbState s, long tableId) {
    if (s.liveTable(tableId).isEmpty()) {
      return List.of();
    }
    List<IndexInfo> out = new java.util.ArrayList<>();
    for (IndexValue v :
        s.staged.list(
            EntityKind.INDEX_DEFINITION,
            tableId,
            IndexValue.class,
            x -> new EntityKey.IndexDefinition(tableId, x.getIndexId()))) {
      out.add(Records.index(v));
    }
    out.sort((a, b) -> Long.compareUnsigned(a.indexId(), b.indexId()));
    return out;
  }

  /**
   * The refusal of {@code verb} on {@code tableId} for {@code indexes}, whose entries it cannot
   * keep true.
   */
  static IndexedTableException refusal(
      VerbState s, long tableId, String verb, List<IndexInfo> indexes) {
    TableValue table = s.requireTable(tableId);
    return new IndexedTableException(
        verb,
        tableId,
        s.requireSchema(table.getSchemaId()).getSchemaName(),
        table.getTableName(),
        indexes.stream().map(IndexInfo::name).toList());
  }
}
