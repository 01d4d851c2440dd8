package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Function;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.PSortedMap;
import org.pcollections.TreePMap;

/**
 * What one {@link SnapshotView} has loaded so far, as persistent maps: a new state shares every
 * node it did not change with the state it came from, and the next snapshot's state starts as this
 * one with what the commits in between changed read again (RFC 0003 §5).
 *
 * <p>Two maps, both keyed by encoded {@code current} keys: {@code points} holds single entities
 * looked up by key (an empty {@code Optional} records that the entity is absent at the snapshot);
 * {@code ranges} holds complete key ranges (a kind, or one table's records of a kind), keyed by the
 * range's prefix. A range is only ever stored whole, which is what lets an accessor that returns
 * "all X" answer from it.
 *
 * <p>A third map, {@code names}, holds a {@link NameIndex} over some of the ranges of named kinds
 * (schemas, tables, views, macros), keyed by the same prefix: built the first time something looks
 * a name up, and from then on kept in step with its range wherever the range changes.
 *
 * <p>A fourth, {@code inlined}, holds tables' inlined rows by table id. A table's inlined rows and
 * the ranges of its files ({@link TableFiles#KINDS}) are installed together from one load, and
 * dropped together; a state holds all four of a table or none.
 */
public record ViewState(
    PMap<KeyBytes, Optional<Message>> points,
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> ranges,
    PMap<KeyBytes, NameIndex> names,
    PMap<Long, InlinedRows> inlined) {

  public static final ViewState EMPTY =
      new ViewState(
          HashTreePMap.empty(), HashTreePMap.empty(), HashTreePMap.empty(), HashTreePMap.empty());

  /**
   * The lengths of the prefixes a range can have: {@code 04 03} (scheduled deletions), {@code 04 02
   * <kind>} (one kind), {@code 04 02 <kind> BE64(table)} (one table's records of a kind).
   */
  private static final int[] RANGE_PREFIX_LENGTHS = {2, 3, 11};

  /** The entity under {@code key} if this state knows it (present or absent), else null. */
  Optional<Message> known(KeyBytes key) {
    Optional<Message> point = points.get(key);
    if (point != null) {
      return point;
    }
    for (int length : RANGE_PREFIX_LENGTHS) {
      if (key.bytes().length > length) {
        PSortedMap<KeyBytes, Message> range =
            ranges.get(new KeyBytes(Arrays.copyOf(key.bytes(), length)));
        if (range != null) {
          return Optional.ofNullable(range.get(key));
        }
      }
    }
    return null;
  }

  /** This state with {@code value} recorded under {@code key}, unless it already knew the key. */
  ViewState withPoint(KeyBytes key, Optional<Message> value) {
    return known(key) != null
        ? this
        : new ViewState(points.plus(key, value), ranges, names, inlined);
  }

  /** This state with the complete range under {@code prefix}, unless it already held it. */
  ViewState withRange(KeyBytes prefix, SortedMap<KeyBytes, Message> records) {
    return ranges.containsKey(prefix)
        ? this
        : new ViewState(points, ranges.plus(prefix, TreePMap.from(records)), names, inlined);
  }

  /**
   * This state with {@code index} as the name index of the range under {@code prefix}, unless it
   * already had one. The caller built {@code index} from this state's range, which a state never
   * replaces, so the two agree.
   */
  ViewState withNames(KeyBytes prefix, NameIndex index) {
    return names.containsKey(prefix) || !ranges.containsKey(prefix)
        ? this
        : new ViewState(points, ranges, names.plus(prefix, index), inlined);
  }

  /**
   * This state with one table's files and inlined rows, unless it already holds them (then this
   * state: the first load installed wins, as for ranges).
   */
  ViewState withTableFiles(long tableId, TableFiles files) {
    if (inlined.containsKey(tableId)) {
      return this;
    }
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> r = ranges;
    for (EntityKind kind : TableFiles.KINDS) {
      r = r.plus(TableFiles.prefix(kind, tableId), TreePMap.from(files.range(kind)));
    }
    return new ViewState(points, r, names, inlined.plus(tableId, files.inlined()));
  }

  /** This state without the files and inlined rows of {@code tables}. */
  ViewState withoutTableFiles(Collection<Long> tables) {
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> r = ranges;
    PMap<Long, InlinedRows> i = inlined;
    for (long tableId : tables) {
      for (EntityKind kind : TableFiles.KINDS) {
        r = r.minus(TableFiles.prefix(kind, tableId));
      }
      i = i.minus(tableId);
    }
    return new ViewState(points, r, names, i);
  }

  /**
   * This state carried across commits that wrote the given {@code current} keys: every key this
   * state knows (as a point, or inside a complete range) is re-read with {@code reload} and put
   * back, or removed from its range if it is gone; keys it does not know stay unknown. Ranges thus
   * stay complete and share every unchanged node with this state, and a range's name index moves
   * with it: the key leaves the name its old record had and joins the one its new record has. A
   * changed key that does not name an entity (a scheduled deletion) drops the ranges that hold it
   * (and their indexes) instead.
   */
  ViewState refreshed(Collection<KeyBytes> changed, Function<EntityKey, Optional<Message>> reload) {
    PMap<KeyBytes, Optional<Message>> p = points;
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> r = ranges;
    PMap<KeyBytes, NameIndex> n = names;
    for (KeyBytes key : changed) {
      List<KeyBytes> covering = new ArrayList<>();
      for (int length : RANGE_PREFIX_LENGTHS) {
        if (key.bytes().length > length) {
          KeyBytes prefix = new KeyBytes(Arrays.copyOf(key.bytes(), length));
          if (r.containsKey(prefix)) {
            covering.add(prefix);
          }
        }
      }
      if (!p.containsKey(key) && covering.isEmpty()) {
        continue;
      }
      if (!(KeyCodec.decode(key.bytes()) instanceof CurrentKey.Entity entity)) {
        p = p.minus(key);
        for (KeyBytes prefix : covering) {
          r = r.minus(prefix);
          n = n.minus(prefix);
        }
        continue;
      }
      Optional<Message> now = reload.apply(entity.entity());
      if (p.containsKey(key)) {
        p = p.plus(key, now);
      }
      for (KeyBytes prefix : covering) {
        PSortedMap<KeyBytes, Message> range = r.get(prefix);
        NameIndex index = n.get(prefix);
        if (index != null) {
          Message before = range.get(key);
          if (before != null) {
            index = index.minus(key, before);
          }
          if (now.isPresent()) {
            index = index.plus(key, now.get());
          }
          n = n.plus(prefix, index);
        }
        r = r.plus(prefix, now.isPresent() ? range.plus(key, now.get()) : range.minus(key));
      }
    }
    return new ViewState(p, r, n, inlined);
  }

  /** How many entities and ranges this state holds (for tests and figures). */
  int size() {
    return points.size() + ranges.size();
  }
}
