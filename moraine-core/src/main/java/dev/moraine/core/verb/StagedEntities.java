package dev.moraine.core.verb;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.view.KeyBytes;
import dev.moraine.core.view.NameIndex;
import dev.moraine.core.view.Names;
import dev.moraine.core.view.SnapshotView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
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
public final class StagedEntities {
  /** One touched entity: the premise's record and the record this commit leaves. */
  public record Change(EntityKey entity, Optional<Message> before, Optional<Message> after) {}

  private final SnapshotView premise;
  // Insertion order is kept only for readable debugging; staging sorts by key.
  private final Map<EntityKey, Change> changes = new LinkedHashMap<>();

  /** A group of touched named entities: one kind, one scope, and a folded name or every name. */
  private record Slot(EntityKind kind, long scope, String folded) {}

  // The overlay's own name index: every touched entity of a named kind, under the scope and folded
  // name of each record it was given here (and under its scope with a null name). An entry goes
  // stale when the entity is renamed, moved or ended later in the attempt, so readers check the
  // change's record again; entries are never removed, which is safe for that reason.
  private final Map<Slot, Set<EntityKey>> touchedNames = new HashMap<>();

  StagedEntities(SnapshotView premise) {
    this.premise = premise;
  }

  public SnapshotView premise() {
    return premise;
  }

  /** The record of {@code entity} as this attempt sees it. */
  public <T extends Message> Optional<T> get(EntityKey entity, Class<T> type) {
    Change change = changes.get(entity);
    if (change != null) {
      return change.after().map(type::cast);
    }
    return premise.recordOf(entity, type);
  }

  /** Stages {@code value} as the record of {@code entity}. */
  void put(EntityKey entity, Message value) {
    changes.put(entity, new Change(entity, beforeOf(entity), Optional.of(value)));
    NameIndex.Named named = NameIndex.named(value);
    if (named != null) {
      String folded = Names.fold(named.name());
      touchedNames
          .computeIfAbsent(new Slot(entity.kind(), named.scope(), folded), x -> new HashSet<>())
          .add(entity);
      touchedNames
          .computeIfAbsent(new Slot(entity.kind(), named.scope(), null), x -> new HashSet<>())
          .add(entity);
    }
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

  /**
   * Every record of a named kind (schema, table, view, macro) in {@code scope} whose name folds as
   * {@code name} does, as this attempt sees it, in key order (hence by id). The premise answers
   * from its name index and this attempt from its own, so the cost follows the matches and the
   * entities this attempt touched under that name, not the catalog. Callers compare the names
   * themselves ({@link Names#same}, or exact case).
   */
  public <T extends Message> List<T> named(
      EntityKind kind, long scope, String name, Class<T> type) {
    SortedMap<KeyBytes, T> found = new TreeMap<>();
    for (Message record : premise.recordsNamed(kind, scope, name)) {
      EntityKey entity = entityOf(kind, record);
      // A touched entity is judged by the record this attempt leaves, below.
      if (!changes.containsKey(entity)) {
        found.put(currentKey(entity), type.cast(record));
      }
    }
    String folded = Names.fold(name);
    for (EntityKey entity : touchedNames.getOrDefault(new Slot(kind, scope, folded), Set.of())) {
      Optional<Message> after = changes.get(entity).after();
      if (after.isPresent() && in(after.get(), scope, folded)) {
        found.put(currentKey(entity), type.cast(after.get()));
      }
    }
    return new ArrayList<>(found.values());
  }

  /**
   * Whether some record of a named kind lies in {@code scope} (a schema holds a table, view or
   * macro) as this attempt sees it. Stops at the first premise record this attempt left alone, so
   * it walks no more of the premise's scope than the entities this attempt touched there.
   */
  boolean anyIn(EntityKind kind, long scope) {
    for (KeyBytes key : premise.keysIn(kind, scope)) {
      if (!changes.containsKey(((CurrentKey.Entity) KeyCodec.decode(key.bytes())).entity())) {
        return true;
      }
    }
    for (EntityKey entity : touchedNames.getOrDefault(new Slot(kind, scope, null), Set.of())) {
      Optional<Message> after = changes.get(entity).after();
      if (after.isPresent() && NameIndex.named(after.get()).scope() == scope) {
        return true;
      }
    }
    return false;
  }

  private static boolean in(Message record, long scope, String folded) {
    NameIndex.Named named = NameIndex.named(record);
    return named.scope() == scope && Names.fold(named.name()).equals(folded);
  }

  private static KeyBytes currentKey(EntityKey entity) {
    return new KeyBytes(KeyCodec.encode(CurrentKey.of(entity)));
  }

  /** The entity a record of a named kind belongs to. */
  private static EntityKey entityOf(EntityKind kind, Message record) {
    if (record instanceof TableValue t) {
      return new EntityKey.Table(t.getTableId());
    } else if (record instanceof ViewValue v) {
      return new EntityKey.View(v.getViewId());
    } else if (record instanceof MacroValue m) {
      return new EntityKey.Macro(m.getMacroId());
    } else if (record instanceof SchemaValue s) {
      return new EntityKey.Schema(s.getSchemaId());
    }
    throw new IllegalArgumentException(kind + " is not a named kind");
  }

  /** Every change, in the order first touched. */
  public List<Change> changes() {
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
