package dev.moraine.core.keyspace;

import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The order keys should have, computed from their logical fields alone and never from bytes: the
 * variant at each level in declaration order (Java enum ordinals and the declaration order of the
 * sealed variants), then the fields in declaration order, ids compared unsigned and index values as
 * unsigned byte strings (a prefix first).
 */
final class LogicalKeyOrder {
  private LogicalKeyOrder() {}

  static final Comparator<Key> ORDER = (a, b) -> compare(tuple(a), tuple(b));

  /** Levels are Integers (declaration positions), ids are Longs, index values byte[]. */
  static List<Object> tuple(Key key) {
    List<Object> t = new ArrayList<>();
    t.add(key.subspace().ordinal());
    if (key instanceof SysKey s) {
      t.add(s.ordinal());
    } else if (key instanceof SnapshotKey s) {
      t.add(s.snapshotId());
    } else if (key instanceof CurrentKey.Entity e) {
      t.add(0);
      entity(e.entity(), t);
    } else if (key instanceof CurrentKey.ScheduledDeletion d) {
      t.add(1);
      t.add(d.dataFileId());
    } else if (key instanceof HistoryKey h) {
      entity(h.entity(), t);
      t.add(h.endSnapshot());
    } else if (key instanceof InlineKey k) {
      inline(k, t);
    } else if (key instanceof IndexEntryKey.Unique u) {
      t.add(0);
      t.add(u.indexId());
      t.add(u.canonicalValue());
    } else if (key instanceof IndexEntryKey.Multi m) {
      t.add(1);
      t.add(m.indexId());
      t.add(m.canonicalValue());
      t.add(m.rowId());
    } else if (key instanceof SchemaVersionKey s) {
      t.add(s.tableId());
      t.add(s.beginSnapshot());
    } else {
      t.add(((ChangelogKey) key).snapshotId());
    }
    return t;
  }

  private static void entity(EntityKey e, List<Object> t) {
    t.add(e.kind().ordinal());
    for (long id : e.ids()) {
      t.add(id);
    }
  }

  private static void inline(InlineKey k, List<Object> t) {
    if (k instanceof InlineKey.Schema s) {
      t.addAll(List.of(0, s.tableId(), s.schemaVersion()));
    } else if (k instanceof InlineKey.Record r) {
      t.add(1 + r.form().ordinal());
      InlineOp op = r.op();
      if (op instanceof InlineOp.InsertChunk i) {
        t.addAll(List.of(0, i.tableId(), i.schemaVersion(), i.beginSnapshot(), i.chunkSeq()));
      } else if (op instanceof InlineOp.LegacyInlineDelete d) {
        t.addAll(List.of(1, d.tableId(), d.rowId()));
      } else {
        InlineOp.FileDelete f = (InlineOp.FileDelete) op;
        t.addAll(List.of(2, f.tableId(), f.dataFileId(), f.rowId()));
      }
    } else if (k instanceof InlineKey.FileDeleteTable f) {
      t.addAll(List.of(3, f.tableId()));
    } else if (k instanceof InlineKey.LegacyChunkRange c) {
      t.addAll(List.of(4, c.tableId(), c.rowIdEnd()));
    } else if (k instanceof InlineKey.SchemaDropped d) {
      t.addAll(List.of(5, d.tableId(), d.schemaVersion()));
    } else if (k instanceof InlineKey.ChunkLocator l) {
      t.addAll(
          List.of(
              6, l.tableId(), l.rowIdEnd(), l.schemaVersion(), l.beginSnapshot(), l.chunkSeq()));
    } else {
      InlineKey.RowTombstone r = (InlineKey.RowTombstone) k;
      t.addAll(List.of(7, r.tableId(), r.rowId(), r.endSnapshot()));
    }
  }

  private static int compare(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      int c;
      if (x instanceof Integer xi && y instanceof Integer yi) {
        c = Integer.compare(xi, yi);
      } else if (x instanceof Long xl && y instanceof Long yl) {
        c = Long.compareUnsigned(xl, yl);
      } else if (x instanceof byte[] xb && y instanceof byte[] yb) {
        c = Arrays.compareUnsigned(xb, yb);
      } else {
        throw new AssertionError("tuples diverge in shape before they differ: " + a + " " + b);
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
