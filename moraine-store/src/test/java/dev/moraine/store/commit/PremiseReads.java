package dev.moraine.store.commit;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.store.commit.CatalogModel.Intent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a committing thread reads through its transaction handle, before its verb runs, about the
 * entities the verb is about to touch (its table, schema, view): the model check from inside the
 * commit. {@link #read} runs in the closure; {@link #expected} says the same from the model at the
 * premise snapshot. For a run that landed, or whose refusal reached the caller, nothing landed
 * between its head read and its end, so what it read must be exactly the premise: the versioned
 * records, and also what has no history (statistics, {@code next_column_id}), which the handle
 * reads through the writer's head view and its caches rather than a fresh reader.
 */
final class PremiseReads {
  private PremiseReads() {}

  /** The handle's reads, in the closure, of the entities {@code intent} touches. */
  static String read(Transaction tx, Intent intent) {
    CatalogSnapshot p = tx.premise();
    StringBuilder b = new StringBuilder();
    for (long id : ids(intent, "tableId")) {
      b.append("\ntable ").append(id).append(": ");
      TableInfo t = tx.table(id).orElse(null);
      if (t == null) {
        b.append("absent");
        continue;
      }
      Map<Long, String> names = new TreeMap<>();
      for (ColumnInfo c : tx.columns(id)) {
        names.put(c.columnId(), c.name());
      }
      TableStats s = tx.tableStats(id).orElseThrow();
      b.append(ConcurrentVerbChoices.read(p, t).describe())
          .append(" handle columns ")
          .append(names)
          .append(" next column ")
          .append(t.nextColumnId())
          .append(" stats ")
          .append(List.of(s.recordCount(), s.fileSizeBytes(), s.nextRowId()))
          .append(" column stats ")
          .append(ConcurrentAlterChoices.columnStats(p, id));
    }
    for (long id : ids(intent, "schemaId")) {
      b.append("\nschema ").append(id).append(": ");
      b.append(tx.schema(id).map(s -> s.name() + " tags " + tags(p, id)).orElse("absent"));
    }
    for (long id : ids(intent, "viewId")) {
      b.append("\nview ").append(id).append(": ");
      ViewInfo v = p.view(id).orElse(null);
      b.append(v == null ? "absent" : view(v.schemaId() + "." + v.name(), v.sql(), tags(p, id)));
    }
    return b.toString();
  }

  /** What {@link #read} must have read, from the model of the premise. */
  static String expected(CatalogModel m, Intent intent) {
    StringBuilder b = new StringBuilder();
    for (long id : ids(intent, "tableId")) {
      b.append("\ntable ").append(id).append(": ");
      CatalogModel.Table t = m.tables().get(id);
      if (t == null) {
        b.append("absent");
        continue;
      }
      long[] s = m.stats().get(id);
      Map<Long, List<String>> columnStats = new TreeMap<>();
      t.columnStats.forEach((c, v) -> columnStats.put(c, java.util.Arrays.asList(v)));
      b.append(t.describe())
          .append(" handle columns ")
          .append(t.columns())
          .append(" next column ")
          .append(t.nextColumnId())
          .append(" stats ")
          .append(List.of(s[0], s[1], s[2]))
          .append(" column stats ")
          .append(columnStats);
    }
    for (long id : ids(intent, "schemaId")) {
      String name = m.schemas().get(id);
      b.append("\nschema ").append(id).append(": ");
      b.append(name == null ? "absent" : name + " tags " + objectTags(m, id));
    }
    for (long id : ids(intent, "viewId")) {
      String view = m.views().get(id);
      b.append("\nview ").append(id).append(": ");
      b.append(view == null ? "absent" : view(view, m.viewSql().get(id), objectTags(m, id)));
    }
    return b.toString();
  }

  private static Map<String, String> objectTags(CatalogModel m, long id) {
    return m.objectTags(Set.of(id)).getOrDefault(id, Map.of());
  }

  private static String view(String qualified, String sql, Map<String, String> tags) {
    return qualified + " sql " + sql + " tags " + tags;
  }

  private static Map<String, String> tags(CatalogSnapshot p, long id) {
    return ConcurrentAlterChoices.objectTags(p, Set.of(id)).getOrDefault(id, Map.of());
  }

  /**
   * The ids an intent names in components called {@code name}; a tag's object counts as the table,
   * schema or view it is set on.
   */
  private static List<Long> ids(Intent intent, String name) {
    if (intent instanceof Intent.Tag t) {
      String on =
          switch (t.on()) {
            case SCHEMA -> "schemaId";
            case VIEW -> "viewId";
            default -> "tableId";
          };
      return on.equals(name) ? List.of(t.objectId()) : List.of();
    }
    java.util.OptionalLong id = CatalogModelAlters.component(intent, name);
    return id.isPresent() ? List.of(id.getAsLong()) : List.of();
  }
}
