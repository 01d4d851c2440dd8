package dev.moraine.store.commit;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.WriteBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The whole-catalog diff check of a commit (test code only): given the store's full contents before
 * and after one write and the operations the commit staged, it finds every key that changed by
 * comparing the two full scans, whatever the commit meant to touch, and holds that difference
 * against the staging and against the keyspace rules (RFC 0002 §12). An omitted write (an entity
 * whose old version never reached history, a changed record the changelog does not name), an extra
 * one (a key outside what a verb commit may write, a put that changes nothing) or a write the store
 * applied differently from the staging fails it with an {@link AssertionError} naming the key.
 *
 * <p>What it checks, for a write that landed:
 *
 * <ol>
 *   <li>the store moved by exactly the staged operations: every staged put is there with its value,
 *       every staged delete is gone, and no other key changed;
 *   <li>no staged put of a {@code current} record rewrites the value already there;
 *   <li>{@code sys/head} moved by one batch, and by one snapshot or none; a commit that mints no
 *       snapshot changes only option records besides the head;
 *   <li>a minting commit adds its snapshot record, its schema-version records (new keys at its own
 *       snapshot), its changelog, and deletes only the changelog that fell out of the window;
 *   <li>every {@code current} record that a versioned entity's commit ended or replaced left its
 *       old version in history at this snapshot, with {@code end_snapshot} set and nothing else
 *       changed, unless the change is one RFC 0002 makes in place; history gains nothing else and
 *       never changes an old key; a new version begins at this snapshot;
 *   <li>the changelog names exactly the {@code current} keys that changed, when the commit wrote
 *       one;
 *   <li>column mappings and the inline subspace follow their own rules ({@link
 *       CommitDiffInlineRules}): a mapping is written once, named by a file of its commit; inline
 *       chunks come with their locators, tombstones and file deletions carry this snapshot, only a
 *       flush removes inlined records, and {@code changes_made} names every table whose inline
 *       records changed.
 * </ol>
 *
 * A write the store refused must have changed nothing.
 */
final class CommitDiffOracle {
  /** How many changelogs the store keeps (RFC 0002 §12.6). */
  private static final long CHANGELOG_WINDOW = 64;

  private CommitDiffOracle() {}

  /**
   * Checks one recorded write; returns it for chaining. A write of a batch of several commits is
   * checked commit by commit: each member's operations applied to the store as the members before
   * it left it, and judged as a write of its own; together they must give the store after.
   */
  static RecordingKvStore.Landed check(RecordingKvStore.Landed w) {
    if (w.refused() || w.members().size() <= 1) {
      return checkOne(w);
    }
    NavigableMap<byte[], byte[]> state = w.before();
    for (List<WriteBatch.Op> member : w.members()) {
      NavigableMap<byte[], byte[]> next = new TreeMap<>(Arrays::compareUnsigned);
      next.putAll(state);
      for (WriteBatch.Op op : member) {
        if (op.isDelete()) {
          next.remove(op.key());
        } else {
          next.put(op.key(), op.value());
        }
      }
      checkOne(new RecordingKvStore.Landed(state, next, member, false));
      state = next;
    }
    require(
        changedKeys(state, w.after()).isEmpty(),
        "the batch's write is not its members' writes one after the other");
    return w;
  }

  private static RecordingKvStore.Landed checkOne(RecordingKvStore.Landed w) {
    TreeSet<byte[]> changed = changedKeys(w.before(), w.after());
    if (w.refused()) {
      require(changed.isEmpty(), "a refused commit changed " + printable(changed));
      return w;
    }
    // 1. Exactly the staged operations, as staged.
    NavigableMap<byte[], byte[]> staged = new TreeMap<>(Arrays::compareUnsigned);
    for (WriteBatch.Op op : w.ops()) {
      staged.put(op.key(), op.value());
    }
    for (var op : staged.entrySet()) {
      byte[] now = w.after().get(op.getKey());
      require(
          Arrays.equals(now, op.getValue()),
          (op.getValue() == null ? "the staged delete of " : "the staged put of ")
              + printable(op.getKey())
              + " is not what the store holds after the commit");
    }
    for (byte[] key : changed) {
      require(staged.containsKey(key), printable(key) + " changed but the commit did not stage it");
    }
    // 2. No put that changes nothing.
    for (var op : staged.entrySet()) {
      if (op.getValue() != null && KeyCodec.decode(op.getKey()) instanceof CurrentKey) {
        require(
            !Arrays.equals(op.getValue(), w.before().get(op.getKey())),
            "the commit rewrote " + printable(op.getKey()) + " with the value it already had");
      }
    }
    // 3. The head.
    HeadValue before = head(w.before());
    HeadValue after = head(w.after());
    require(after.getBatchSeq() == before.getBatchSeq() + 1, "the batch sequence moved by one");
    long n = after.getSnapshotId();
    boolean mints = n == before.getSnapshotId() + 1;
    require(mints || n == before.getSnapshotId(), "the head moved by one snapshot or none");

    List<byte[]> currentChanged = new ArrayList<>();
    TreeSet<byte[]> historyAdded = new TreeSet<>(Arrays::compareUnsigned);
    List<byte[]> inlineChanged = new ArrayList<>();
    boolean changelogWritten = false;
    for (byte[] key : changed) {
      Key k = KeyCodec.decode(key);
      String at = printable(key);
      boolean added = !w.before().containsKey(key);
      boolean removed = !w.after().containsKey(key);
      if (k == SysKey.HEAD) {
        continue;
      } else if (k instanceof CurrentKey.Entity e) {
        require(
            mints || e.entity().kind() == EntityKind.OPTION_SCOPE,
            "a commit that minted no snapshot changed " + at);
        currentChanged.add(key);
      } else if (!mints) {
        require(false, "a commit that minted no snapshot changed " + at);
      } else if (k instanceof SnapshotKey s) {
        require(added && s.snapshotId() == n, "only snapshot " + n + "'s record is new: " + at);
      } else if (k instanceof SchemaVersionKey v) {
        require(
            added && v.beginSnapshot() == n, "schema-version records are new at " + n + ": " + at);
      } else if (k instanceof ChangelogKey c) {
        if (c.snapshotId() == n) {
          require(added, "the changelog of " + n + " is new");
          changelogWritten = true;
        } else {
          require(
              removed && c.snapshotId() == n - CHANGELOG_WINDOW,
              "only the changelog that left the window is deleted: " + at);
        }
      } else if (k instanceof HistoryKey h) {
        require(
            added && h.endSnapshot() == n, "history only gains versions ended at " + n + ": " + at);
        historyAdded.add(key);
      } else if (k instanceof InlineKey) {
        inlineChanged.add(key);
      } else {
        require(false, "a verb commit does not write " + at);
      }
    }
    // 4b. Mappings and the inline subspace.
    String changesMade = mints ? snapshot(w.after(), n).getChangesMade() : "";
    CommitDiffInlineRules.checkMappings(w, currentChanged);
    CommitDiffInlineRules.checkInline(w, n, inlineChanged, changesMade);
    // 5. Versions: ended or replaced versions reach history; new versions begin at n.
    TreeSet<byte[]> historyExpected = new TreeSet<>(Arrays::compareUnsigned);
    for (byte[] key : currentChanged) {
      CurrentKey.Entity current = (CurrentKey.Entity) KeyCodec.decode(key);
      if (!current.entity().kind().versioned()) {
        continue;
      }
      Message old = decode(current, w.before().get(key));
      Message now = decode(current, w.after().get(key));
      if (now != null && (old == null || !inPlace(old, now))) {
        long begin = CommitDiffInlineRules.expectedBegin(w, n, now, changesMade);
        require(
            field(now, "begin_snapshot").equals(begin),
            "the new version of " + printable(key) + " begins at " + begin);
      }
      if (old == null || (now != null && inPlace(old, now))) {
        continue;
      }
      HistoryKey history = new HistoryKey(current.entity(), n);
      byte[] historyBytes = KeyCodec.encode(history);
      historyExpected.add(historyBytes);
      Message kept = decode(history, w.after().get(historyBytes));
      require(
          kept != null, "the old version of " + printable(key) + " did not reach history at " + n);
      FieldDescriptor end = old.getDescriptorForType().findFieldByName("end_snapshot");
      require(
          kept.equals(old.toBuilder().setField(end, n).build()),
          "history of " + printable(key) + " is its old version ended at " + n);
    }
    require(
        sameKeys(historyExpected, historyAdded),
        "history gained " + printable(historyAdded) + ", expected " + printable(historyExpected));
    // 6. The changelog names exactly the current keys that changed.
    if (changelogWritten) {
      byte[] logKey = KeyCodec.encode(new ChangelogKey(n));
      ChangelogValue log =
          ValueCodec.decode(new ChangelogKey(n), w.after().get(logKey), ChangelogValue.class);
      TreeSet<byte[]> named = new TreeSet<>(Arrays::compareUnsigned);
      for (ByteString k : log.getKeysList()) {
        named.add(k.toByteArray());
      }
      TreeSet<byte[]> expected = new TreeSet<>(Arrays::compareUnsigned);
      expected.addAll(currentChanged);
      require(
          sameKeys(named, expected),
          "changelog "
              + n
              + " names "
              + printable(named)
              + " but the changed current keys are "
              + printable(expected));
    }
    return w;
  }

  private static TreeSet<byte[]> changedKeys(
      NavigableMap<byte[], byte[]> before, NavigableMap<byte[], byte[]> after) {
    TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
    keys.addAll(before.keySet());
    keys.addAll(after.keySet());
    keys.removeIf(k -> Arrays.equals(before.get(k), after.get(k)));
    return keys;
  }

  private static boolean sameKeys(TreeSet<byte[]> a, TreeSet<byte[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    var ia = a.iterator();
    var ib = b.iterator();
    while (ia.hasNext()) {
      if (!Arrays.equals(ia.next(), ib.next())) {
        return false;
      }
    }
    return true;
  }

  /** RFC 0002 §12.1: a table's next_column_id and a column's tags change in place. */
  private static boolean inPlace(Message old, Message now) {
    if (old instanceof TableValue b && now instanceof TableValue a) {
      return b.toBuilder()
          .clearNextColumnId()
          .build()
          .equals(a.toBuilder().clearNextColumnId().build());
    }
    if (old instanceof ColumnValue b && now instanceof ColumnValue a) {
      return b.toBuilder().clearTags().build().equals(a.toBuilder().clearTags().build());
    }
    return false;
  }

  private static Object field(Message m, String name) {
    return m.getField(m.getDescriptorForType().findFieldByName(name));
  }

  private static HeadValue head(NavigableMap<byte[], byte[]> contents) {
    byte[] bytes = contents.get(KeyCodec.encode(SysKey.HEAD));
    require(bytes != null, "the store has a head");
    return ValueCodec.decode(SysKey.HEAD, bytes, HeadValue.class);
  }

  private static SnapshotValue snapshot(NavigableMap<byte[], byte[]> contents, long id) {
    SnapshotKey key = new SnapshotKey(id);
    byte[] bytes = contents.get(KeyCodec.encode(key));
    require(bytes != null, "snapshot " + id + " has a record");
    return ValueCodec.decode(key, bytes, SnapshotValue.class);
  }

  private static Message decode(Key key, byte[] bytes) {
    return bytes == null ? null : ValueCodec.decode(key, bytes);
  }

  static String printable(byte[] key) {
    try {
      return KeyCodec.decode(key).printable();
    } catch (RuntimeException notAKey) {
      return java.util.HexFormat.of().formatHex(key);
    }
  }

  static String printable(Iterable<byte[]> keys) {
    List<String> out = new ArrayList<>();
    keys.forEach(k -> out.add(printable(k)));
    return out.toString();
  }

  static void require(boolean holds, String what) {
    if (!holds) {
      throw new AssertionError("whole-catalog diff: " + what);
    }
  }
}
