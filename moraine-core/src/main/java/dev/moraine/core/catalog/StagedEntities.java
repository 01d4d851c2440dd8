package dev.moraine.core.catalog;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The entities one commit attempt has touched, over its premise: for each, the record the premise
 * holds ({@code before}) and the record the commit leaves ({@code after}; empty when it ends the
 * entity). Reads through this overlay see the attempt's own changes first and the premise
 * otherwise, so a verb validates against what the closure did before it.
 *
 * <p>The overlay is the list of touched ids RFC 0004 asks for: staging walks it and nothing else,
 * so a commit's cost follows what it touched, not the catalog's size. An entity touched and then
 * put back as it was stages no write.
 *
 * <p>Confined to the thread running the closure; not thread-safe.
 */
final class StagedEntities {
  /** One touched entity: the premise's record and the record this commit leaves. */
  record Change(EntityKey entity, Optional<Message> before, Optional<Message> after) {}

  private final CatalogSnapshot premise;
  // Insertion order is kept only for readable debugging; staging sorts by key.
  private final Map<EntityKey, Change> changes = new LinkedHashMap<>();

  StagedEntities(CatalogSnapshot premise) {
    this.premise = premise;
  }

  CatalogSnapshot premise() {
    return premise;
  }

  /** The record of {@code entity} as this attempt sees it. */
  <T extends Message> Optional<T> get(EntityKey entity, Class<T> type) {
    Change change = changes.get(entity);
    if (change != null) {
      return change.after().map(type::cast);
    }
    return premise.recordOf(entity, type);
  }

  /** Stages {@code value} as the record of {@code entity}. */
  void put(EntityKey entity, Message value) {
    changes.put(entity, new Change(entity, beforeOf(entity), Optional.of(value)));
  }

  /** Stages the end of {@code entity} (a no-op for an entity that never existed). */
  void delete(EntityKey entity) {
    changes.put(entity, new Change(entity, beforeOf(entity), Optional.empty()));
  }

  private Optional<Message> beforeOf(EntityKey entity) {
    Change known = changes.get(entity);
    return known != null ? known.before() : premise.recordOf(entity, Message.class);
  }

  /**
   * Every record of {@code kind} (of one table when {@code tableId} is given) as this attempt sees
   * it: the premise's, with this attempt's puts and ends applied. {@code keyOf} names the entity of
   * a record.
   */
  <T extends Message> List<T> list(
      EntityKind kind, Long tableId, Class<T> type, Function<T, EntityKey> keyOf) {
    Map<EntityKey, T> merged = new LinkedHashMap<>();
    for (T record : premise.recordsOf(kind, tableId, type)) {
      merged.put(keyOf.apply(record), record);
    }
    for (Change change : changes.values()) {
      if (change.entity().kind() != kind
          || (tableId != null && tableOf(change.entity()) != tableId.longValue())) {
        continue;
      }
      if (change.after().isPresent()) {
        merged.put(change.entity(), type.cast(change.after().get()));
      } else {
        merged.remove(change.entity());
      }
    }
    return new ArrayList<>(merged.values());
  }

  /** Every change, in the order first touched. */
  List<Change> changes() {
    return new ArrayList<>(changes.values());
  }

  /** True when some touched entity is not an option scope. */
  boolean touchesMoreThanOptions() {
    return changes.keySet().stream().anyMatch(e -> e.kind() != EntityKind.OPTION_SCOPE);
  }

  private static long tableOf(EntityKey entity) {
    if (entity instanceof EntityKey.Column c) {
      return c.tableId();
    } else if (entity instanceof EntityKey.DataFile f) {
      return f.tableId();
    } else if (entity instanceof EntityKey.DeleteFile f) {
      return f.tableId();
    } else if (entity instanceof EntityKey.Partition p) {
      return p.tableId();
    } else if (entity instanceof EntityKey.Sort s) {
      return s.tableId();
    } else if (entity instanceof EntityKey.TableColumnStats s) {
      return s.tableId();
    } else if (entity instanceof EntityKey.FileColumnStats s) {
      return s.tableId();
    } else if (entity instanceof EntityKey.Mapping m) {
      return m.tableId();
    } else if (entity instanceof EntityKey.IndexDefinition i) {
      return i.tableId();
    } else if (entity instanceof EntityKey.TableStats s) {
      return s.tableId();
    }
    return -1;
  }
}
