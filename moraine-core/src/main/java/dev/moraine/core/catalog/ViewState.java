package dev.moraine.core.catalog;

import com.google.protobuf.Message;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;
import java.util.SortedMap;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.PSortedMap;
import org.pcollections.TreePMap;

/**
 * What one {@link CatalogSnapshot} has loaded so far, as persistent maps: a new state shares every
 * node it did not change with the state it came from, and the next snapshot's state starts as this
 * one minus what the commits in between changed (RFC 0003 §5).
 *
 * <p>Two maps, both keyed by encoded {@code current} keys: {@code points} holds single entities
 * looked up by key (an empty {@code Optional} records that the entity is absent at the snapshot);
 * {@code ranges} holds complete key ranges (a kind, or one table's records of a kind), keyed by the
 * range's prefix. A range is only ever stored whole, which is what lets an accessor that returns
 * "all X" answer from it.
 */
record ViewState(
    PMap<KeyBytes, Optional<Message>> points,
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> ranges) {

  static final ViewState EMPTY = new ViewState(HashTreePMap.empty(), HashTreePMap.empty());

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
    return known(key) != null ? this : new ViewState(points.plus(key, value), ranges);
  }

  /** This state with the complete range under {@code prefix}, unless it already held it. */
  ViewState withRange(KeyBytes prefix, SortedMap<KeyBytes, Message> records) {
    return ranges.containsKey(prefix)
        ? this
        : new ViewState(points, ranges.plus(prefix, TreePMap.from(records)));
  }

  /**
   * This state less everything the given {@code current} keys may have changed: the points under
   * them and every range that contains one of them.
   */
  ViewState without(Collection<KeyBytes> changed) {
    PMap<KeyBytes, Optional<Message>> p = points.minusAll(changed);
    PMap<KeyBytes, PSortedMap<KeyBytes, Message>> r = ranges;
    for (KeyBytes key : changed) {
      for (int length : RANGE_PREFIX_LENGTHS) {
        if (key.bytes().length > length) {
          r = r.minus(new KeyBytes(Arrays.copyOf(key.bytes(), length)));
        }
      }
    }
    return new ViewState(p, r);
  }

  /** How many entities and ranges this state holds (for tests and figures). */
  int size() {
    return points.size() + ranges.size();
  }
}
