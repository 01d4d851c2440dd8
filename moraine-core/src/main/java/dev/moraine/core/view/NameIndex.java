package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.PSortedSet;
import org.pcollections.TreePSet;

/**
 * Which entities of one named kind (schemas, tables, views or macros) carry which name, built in
 * memory over a complete range a view has loaded: the lake stores no such index (RFC 0003 §3.2).
 *
 * <p>Persistent: {@link #plus} and {@link #minus} return a new index sharing every untouched node
 * with this one, so the index of one head view is carried to the next by the changelog replay at
 * the cost of the entities the commits in between changed, like the range it indexes (RFC 0003 §5).
 * Entries are the encoded {@code current} keys of the entities, grouped by scope (the schema of a
 * table, view or macro; one scope for all schemas) and then by folded name ({@link Names#fold}). A
 * folded name can map to several keys: scalar and table macros may share a name, and a lake written
 * elsewhere is not bound to our uniqueness rules.
 *
 * <p>Immutable, so safe to share between threads.
 */
public final class NameIndex {
  /** The scope every schema is indexed under. */
  public static final long SCHEMA_SCOPE = 0;

  /** The scope and name of a record of a named kind. */
  public record Named(long scope, String name) {}

  private final PMap<Long, PMap<String, PSortedSet<KeyBytes>>> scopes;

  private NameIndex(PMap<Long, PMap<String, PSortedSet<KeyBytes>>> scopes) {
    this.scopes = scopes;
  }

  /** The index of every record of {@code range}, keyed by its {@code current} key. */
  static NameIndex of(Map<KeyBytes, Message> range) {
    // Grouped in mutable maps first and frozen once: one pass, without the path copies that
    // adding entries one by one to the persistent maps would make.
    Map<Long, Map<String, SortedSet<KeyBytes>>> groups = new HashMap<>();
    for (Map.Entry<KeyBytes, Message> e : range.entrySet()) {
      Named n = named(e.getValue());
      if (n != null) {
        groups
            .computeIfAbsent(n.scope(), x -> new HashMap<>())
            .computeIfAbsent(Names.fold(n.name()), x -> new TreeSet<>())
            .add(e.getKey());
      }
    }
    Map<Long, PMap<String, PSortedSet<KeyBytes>>> frozen = new HashMap<>();
    for (Map.Entry<Long, Map<String, SortedSet<KeyBytes>>> scope : groups.entrySet()) {
      Map<String, PSortedSet<KeyBytes>> names = new HashMap<>();
      scope.getValue().forEach((name, keys) -> names.put(name, TreePSet.from(keys)));
      frozen.put(scope.getKey(), HashTreePMap.from(names));
    }
    return new NameIndex(HashTreePMap.from(frozen));
  }

  /** The scope and name of {@code record}, or null when its kind carries no name. */
  public static Named named(Message record) {
    if (record instanceof TableValue t) {
      return new Named(t.getSchemaId(), t.getTableName());
    } else if (record instanceof ViewValue v) {
      return new Named(v.getSchemaId(), v.getViewName());
    } else if (record instanceof MacroValue m) {
      return new Named(m.getSchemaId(), m.getMacroName());
    } else if (record instanceof SchemaValue s) {
      return new Named(SCHEMA_SCOPE, s.getSchemaName());
    }
    return null;
  }

  /** This index with {@code key} listed under the scope and name of {@code record}. */
  NameIndex plus(KeyBytes key, Message record) {
    Named n = named(record);
    if (n == null) {
      return this;
    }
    String folded = Names.fold(n.name());
    PMap<String, PSortedSet<KeyBytes>> names = scopes.getOrDefault(n.scope(), HashTreePMap.empty());
    PSortedSet<KeyBytes> keys = names.getOrDefault(folded, TreePSet.empty());
    return new NameIndex(scopes.plus(n.scope(), names.plus(folded, keys.plus(key))));
  }

  /**
   * This index without {@code key} under the scope and name of {@code record} (the record the key
   * held when it was listed); empty groups are removed, so an empty scope is absent.
   */
  NameIndex minus(KeyBytes key, Message record) {
    Named n = named(record);
    if (n == null) {
      return this;
    }
    String folded = Names.fold(n.name());
    PMap<String, PSortedSet<KeyBytes>> names = scopes.get(n.scope());
    PSortedSet<KeyBytes> keys = names == null ? null : names.get(folded);
    if (keys == null || !keys.contains(key)) {
      return this;
    }
    PSortedSet<KeyBytes> left = keys.minus(key);
    PMap<String, PSortedSet<KeyBytes>> rest =
        left.isEmpty() ? names.minus(folded) : names.plus(folded, left);
    return new NameIndex(rest.isEmpty() ? scopes.minus(n.scope()) : scopes.plus(n.scope(), rest));
  }

  /** The keys listed in {@code scope} under the folded form of {@code name}, in key order. */
  SortedSet<KeyBytes> keysNamed(long scope, String name) {
    PMap<String, PSortedSet<KeyBytes>> names = scopes.get(scope);
    PSortedSet<KeyBytes> keys = names == null ? null : names.get(Names.fold(name));
    return keys == null ? TreePSet.empty() : keys;
  }

  /**
   * The keys listed in {@code scope}, in no particular order. Walking it costs what the caller
   * consumes, so a caller that stops at the first key it wants pays for the keys before it only.
   */
  Iterable<KeyBytes> keysIn(long scope) {
    PMap<String, PSortedSet<KeyBytes>> names = scopes.get(scope);
    if (names == null) {
      return List.of();
    }
    // A stream is lazy: the iterator visits groups only as far as the caller goes.
    return () -> names.values().stream().flatMap(PSortedSet::stream).iterator();
  }
}
