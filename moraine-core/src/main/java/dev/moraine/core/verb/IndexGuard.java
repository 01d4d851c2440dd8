package dev.moraine.core.verb;

import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.keyspace.proto.TableValue;
import java.util.Collection;
import java.util.List;

/**
 * Refuses the verbs that would leave a table's equality indexes wrong (RFC 0002 §10.1): this
 * library does not write index entries, so every verb that adds, removes or moves rows of a table
 * with a live index definition is refused, and so are dropping and retyping a column an index
 * names. The refusal is an {@link IndexedTableException}, thrown before the verb stages anything.
 *
 * <p>The definitions come from the premise: no verb creates one, and the only verb that ends one
 * ({@code dropTable}) ends the table with it, after which every verb on the table is refused as not
 * found.
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
   * The live index definitions of a table, by id. None for a table this commit created, and none
   * for a missing table, whose verb then reports it as not found.
   */
  private static List<IndexInfo> liveIndexes(VerbState s, long tableId) {
    if (s.provisional(tableId) || s.liveTable(tableId).isEmpty()) {
      return List.of();
    }
    return s.staged.premise().indexes(tableId);
  }

  private static IndexedTableException refusal(
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
