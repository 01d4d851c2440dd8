package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import java.util.OptionalLong;

/**
 * When a record version is part of a snapshot: RFC 0002 §5.2/§5.3 and RFC 0003 §3.3. A version that
 * began at {@code b} and ended at {@code e} (exclusive; none while it is current) belongs to every
 * snapshot {@code s} with {@code b <= s < e}. Ids and snapshot numbers compare unsigned.
 */
public final class Visibility {
  private Visibility() {}

  /** Whether a version spanning [{@code begin}, {@code end}) is live at {@code at}. */
  static boolean liveAt(long begin, OptionalLong end, long at) {
    return Long.compareUnsigned(begin, at) <= 0
        && (end.isEmpty() || Long.compareUnsigned(end.getAsLong(), at) > 0);
  }

  /**
   * Whether the stored version {@code m} is live at {@code at}. Unversioned kinds (stats, options,
   * tags, mappings, scheduled deletions) carry no span and are live at every snapshot, as the
   * format has no history for them (RFC 0003 §3.3).
   */
  static boolean liveAt(Message m, long at) {
    if (m instanceof SchemaValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof TableValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof ViewValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof ColumnValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof PartitionValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof DataFileValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof DeleteFileValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof SortValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof MacroValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    } else if (m instanceof IndexValue v) {
      return liveAt(v.getBeginSnapshot(), end(v.hasEndSnapshot(), v.getEndSnapshot()), at);
    }
    return true;
  }

  /**
   * The begin snapshot of a stored version of a versioned kind.
   *
   * @throws IllegalArgumentException if {@code m} is not the value of a versioned kind
   */
  public static long beginOf(Message m) {
    if (m instanceof SchemaValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof TableValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof ViewValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof ColumnValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof PartitionValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof DataFileValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof DeleteFileValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof SortValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof MacroValue v) {
      return v.getBeginSnapshot();
    } else if (m instanceof IndexValue v) {
      return v.getBeginSnapshot();
    }
    throw new IllegalArgumentException("not a versioned value: " + m.getClass().getSimpleName());
  }

  /**
   * The end snapshot of a stored version of a versioned kind, if it has one.
   *
   * @throws IllegalArgumentException if {@code m} is not the value of a versioned kind
   */
  public static OptionalLong endOf(Message m) {
    if (m instanceof SchemaValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof TableValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof ViewValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof ColumnValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof PartitionValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof DataFileValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof DeleteFileValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof SortValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof MacroValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    } else if (m instanceof IndexValue v) {
      return end(v.hasEndSnapshot(), v.getEndSnapshot());
    }
    throw new IllegalArgumentException("not a versioned value: " + m.getClass().getSimpleName());
  }

  private static OptionalLong end(boolean present, long value) {
    return present ? OptionalLong.of(value) : OptionalLong.empty();
  }
}
