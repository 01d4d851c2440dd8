package dev.moraine.store.commit;

import static dev.moraine.store.commit.CommitDiffOracle.printable;
import static dev.moraine.store.commit.CommitDiffOracle.require;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.InlineChunkRangeValue;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteValue;
import dev.moraine.core.keyspace.proto.InlineInlineDeleteValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The part of {@link CommitDiffOracle} for the records a verb commit writes outside the versioned
 * entities: column mappings (RFC 0002 §5.2 kind {@code 10}) and the inline subspace (RFC 0002 §5.4
 * and §9.1, RFC 0004 §3). Test code only; every breach is an {@link AssertionError} naming the key.
 *
 * <p>The rules, for a commit minting snapshot {@code N}:
 *
 * <ul>
 *   <li>a mapping is written once: only added, with the key's table and mapping id, and named
 *       ({@code mapping_id}) by a data file of the same table that this commit adds;
 *   <li>an inline schema record ({@code 06 02}) is only added, never changed or removed, and holds
 *       an Arrow schema (not a reference: only the staged path writes those);
 *   <li>an insert chunk ({@code 06 03 02}) and its locator ({@code 06 08}) come and go together
 *       with matching identity and row range; an added chunk begins at {@code N}, has rows, and has
 *       a schema record for its version after the commit;
 *   <li>a row tombstone ({@code 06 09}) is added ended at {@code N}, for a row some chunk of the
 *       table holds; an inline file deletion ({@code 06 03 04}) is added begun at {@code N}, with
 *       the table's marker ({@code 06 05}) present after the commit; the marker is never removed;
 *   <li>chunks, locators, tombstones and inline file deletions are removed only by a flush;
 *   <li>nothing changes a stored inline record in place, and a verb commit writes none of the
 *       archived or legacy forms;
 *   <li>a schema drop marker ({@code 06 07}) is added only by a flush of its table, for a version
 *       with a schema record that a newer registered version of the table follows;
 *   <li>{@code changes_made} names {@code inlined_insert}, {@code inlined_delete} and {@code
 *       inline_flush} for exactly the tables whose chunks were added, whose rows were deleted
 *       inline, and whose inline records were removed.
 * </ul>
 */
final class CommitDiffInlineRules {
  private CommitDiffInlineRules() {}

  /** The mapping rules over the {@code current} keys the commit changed. */
  static void checkMappings(RecordingKvStore.Landed w, List<byte[]> currentChanged) {
    Map<Long, Long> mappingsAdded = new TreeMap<>(); // mapping id → table
    for (byte[] key : currentChanged) {
      CurrentKey.Entity e = (CurrentKey.Entity) KeyCodec.decode(key);
      if (e.entity() instanceof EntityKey.Mapping m) {
        String at = printable(key);
        require(
            !w.before().containsKey(key) && w.after().containsKey(key),
            "a mapping is written once, never changed or removed: " + at);
        MappingValue v = ValueCodec.decode(e, w.after().get(key), MappingValue.class);
        require(
            v.getMappingId() == m.mappingId() && v.getTableId() == m.tableId(),
            "the mapping record names its own key: " + at);
        require(v.getNameMappingsCount() > 0, "a mapping by name has name-mapping rows: " + at);
        mappingsAdded.put(m.mappingId(), m.tableId());
      }
    }
    Set<Long> named = new TreeSet<>();
    for (byte[] key : currentChanged) {
      CurrentKey.Entity e = (CurrentKey.Entity) KeyCodec.decode(key);
      if (e.entity() instanceof EntityKey.DataFile f
          && !w.before().containsKey(key)
          && w.after().containsKey(key)) {
        DataFileValue v = ValueCodec.decode(e, w.after().get(key), DataFileValue.class);
        if (v.hasMappingId()) {
          Long table = mappingsAdded.get(v.getMappingId());
          require(
              table != null && table == f.tableId(),
              "data file "
                  + f.dataFileId()
                  + " names mapping "
                  + v.getMappingId()
                  + ", which its commit did not write for table "
                  + f.tableId());
          named.add(v.getMappingId());
        }
      }
    }
    require(
        named.equals(mappingsAdded.keySet()),
        "mappings " + mappingsAdded.keySet() + " written, but new files name " + named);
  }

  /** The inline rules over the inline keys the commit changed. */
  static void checkInline(
      RecordingKvStore.Landed w, long n, List<byte[]> inlineChanged, String changesMade) {
    NavigableMap<byte[], byte[]> before = w.before();
    NavigableMap<byte[], byte[]> after = w.after();
    Set<Long> inserted = new TreeSet<>();
    Set<Long> deleted = new TreeSet<>();
    Set<Long> drained = new TreeSet<>();
    Set<Long> droppedBy = new TreeSet<>();
    for (byte[] key : inlineChanged) {
      Key k = KeyCodec.decode(key);
      String at = printable(key);
      boolean added = !before.containsKey(key);
      boolean removed = !after.containsKey(key);
      require(added || removed, "a stored inline record is never rewritten: " + at);
      if (k instanceof InlineKey.Schema s) {
        require(added, "an inline schema record is written once and kept: " + at);
        InlineSchemaValue v = ValueCodec.decode(k, after.get(key), InlineSchemaValue.class);
        require(
            !v.getArrowSchema().isEmpty() && !v.hasSameAsVersion(),
            "a verb commit writes an Arrow schema, not a reference: " + at);
      } else if (k instanceof InlineKey.Record r
          && r.form() == InlineKey.Form.LIVE
          && r.op() instanceof InlineOp.InsertChunk c) {
        NavigableMap<byte[], byte[]> side = added ? after : before;
        InlineChunkValue v = ValueCodec.decode(k, side.get(key), InlineChunkValue.class);
        require(v.getRowCount() > 0, "an inline chunk has rows: " + at);
        require(!v.hasDataFileId(), "no format-9 writer sets a chunk's data_file_id: " + at);
        byte[] locator =
            KeyCodec.encode(
                new InlineKey.ChunkLocator(
                    c.tableId(),
                    v.getRowIdStart() + v.getRowCount() - 1,
                    c.schemaVersion(),
                    c.beginSnapshot(),
                    c.chunkSeq()));
        if (added) {
          require(c.beginSnapshot() == n, "a new chunk begins at " + n + ": " + at);
          require(
              after.containsKey(
                  KeyCodec.encode(new InlineKey.Schema(c.tableId(), c.schemaVersion()))),
              "the version of a new chunk has its schema record: " + at);
          require(
              inlineChanged.stream().anyMatch(x -> java.util.Arrays.equals(x, locator))
                  && after.containsKey(locator),
              "the locator of chunk " + at + " was not written with it");
          inserted.add(c.tableId());
        } else {
          require(
              before.containsKey(locator) && !after.containsKey(locator),
              "the locator of removed chunk " + at + " was not removed with it");
          drained.add(c.tableId());
        }
      } else if (k instanceof InlineKey.ChunkLocator l) {
        NavigableMap<byte[], byte[]> side = added ? after : before;
        InlineChunkRangeValue v = ValueCodec.decode(k, side.get(key), InlineChunkRangeValue.class);
        require(
            v.getSchemaVersion() == l.schemaVersion()
                && v.getBeginSnapshot() == l.beginSnapshot()
                && v.getChunkSeq() == l.chunkSeq()
                && v.getRowIdStart() <= l.rowIdEnd(),
            "a locator repeats its chunk's identity and range: " + at);
        byte[] chunk =
            KeyCodec.encode(
                InlineKey.Record.live(
                    new InlineOp.InsertChunk(
                        l.tableId(), l.schemaVersion(), l.beginSnapshot(), l.chunkSeq())));
        require(
            added
                ? !before.containsKey(chunk) && after.containsKey(chunk)
                : !after.containsKey(chunk),
            "locator " + at + " changed without its chunk");
      } else if (k instanceof InlineKey.RowTombstone t) {
        if (added) {
          InlineInlineDeleteValue v =
              ValueCodec.decode(k, after.get(key), InlineInlineDeleteValue.class);
          require(
              t.endSnapshot() == n && v.getEndSnapshot() == n,
              "a new tombstone ends its row at " + n + ": " + at);
          require(
              chunkHolds(before, t.tableId(), t.rowId()),
              "tombstone " + at + " deletes a row no inlined chunk held");
          deleted.add(t.tableId());
        } else {
          drained.add(t.tableId());
        }
      } else if (k instanceof InlineKey.Record r
          && r.form() == InlineKey.Form.LIVE
          && r.op() instanceof InlineOp.FileDelete f) {
        if (added) {
          InlineFileDeleteValue v =
              ValueCodec.decode(k, after.get(key), InlineFileDeleteValue.class);
          require(
              v.getBeginSnapshot() == n, "a new inline file deletion begins at " + n + ": " + at);
          require(
              after.containsKey(KeyCodec.encode(new InlineKey.FileDeleteTable(f.tableId()))),
              "table " + f.tableId() + " has no inline file-deletion marker for " + at);
          deleted.add(f.tableId());
        } else {
          drained.add(f.tableId());
        }
      } else if (k instanceof InlineKey.FileDeleteTable) {
        require(added, "the inline file-deletion marker is never removed: " + at);
      } else if (k instanceof InlineKey.SchemaDropped d) {
        require(added, "a schema drop marker is never removed: " + at);
        require(
            before.containsKey(
                KeyCodec.encode(new InlineKey.Schema(d.tableId(), d.schemaVersion()))),
            "a dropped version has a schema record: " + at);
        require(
            newerRegistered(after, d.tableId(), d.schemaVersion()),
            "a flush keeps the newest registered version of a table: " + at);
        droppedBy.add(d.tableId());
      } else {
        require(false, "a verb commit does not write " + at);
      }
    }
    ChangeSet changes = ChangesMade.parse(changesMade);
    require(
        inserted.equals(ids(changes, ChangeKind.INLINED_INSERT)),
        "chunks added for tables " + inserted + " but changes_made is " + changesMade);
    require(
        deleted.equals(ids(changes, ChangeKind.INLINED_DELETE)),
        "rows deleted inline in tables " + deleted + " but changes_made is " + changesMade);
    require(
        drained.equals(ids(changes, ChangeKind.INLINE_FLUSH)),
        "inline records removed from tables " + drained + " but changes_made is " + changesMade);
    require(
        ids(changes, ChangeKind.INLINE_FLUSH).containsAll(droppedBy),
        "schema versions of tables " + droppedBy + " dropped, but changes_made is " + changesMade);
  }

  /** Whether table {@code tableId} has a schema record above {@code version} and no drop marker. */
  private static boolean newerRegistered(
      NavigableMap<byte[], byte[]> after, long tableId, long version) {
    for (byte[] key : after.keySet()) {
      if (KeyCodec.decode(key) instanceof InlineKey.Schema s
          && s.tableId() == tableId
          && Long.compareUnsigned(s.schemaVersion(), version) > 0
          && !after.containsKey(
              KeyCodec.encode(new InlineKey.SchemaDropped(tableId, s.schemaVersion())))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The snapshot a new version must begin at: {@code n}, except for the files a flush registers
   * (RFC 0004 §3), which are backdated: the data file to the first flushed chunk, the delete file
   * of rows deleted while inlined to the first tombstone it drains, and a data file's delete file
   * to the first inline deletion of its rows.
   */
  static long expectedBegin(RecordingKvStore.Landed w, long n, Message now, String changesMade) {
    long table;
    if (now instanceof DataFileValue d) {
      table = d.getTableId();
    } else if (now instanceof DeleteFileValue x) {
      table = x.getTableId();
    } else {
      return n;
    }
    if (!ids(ChangesMade.parse(changesMade), ChangeKind.INLINE_FLUSH).contains(table)) {
      return n;
    }
    long first = Long.MAX_VALUE;
    for (var e : w.before().entrySet()) {
      if (w.after().containsKey(e.getKey())) {
        continue;
      }
      Key k = KeyCodec.decode(e.getKey());
      if (now instanceof DataFileValue
          && k instanceof InlineKey.Record r
          && r.op() instanceof InlineOp.InsertChunk c
          && c.tableId() == table) {
        first = Math.min(first, c.beginSnapshot());
      } else if (now instanceof DeleteFileValue x) {
        byte[] target =
            KeyCodec.encode(CurrentKey.of(new EntityKey.DataFile(table, x.getDataFileId())));
        // The flushed data file is the one this commit creates; a data file already there, or one
        // that ended before the flush (its record only in history), gets the delete file of its
        // inline deletions.
        boolean flushedFile = w.after().containsKey(target) && !w.before().containsKey(target);
        if (flushedFile && k instanceof InlineKey.RowTombstone t && t.tableId() == table) {
          first = Math.min(first, t.endSnapshot());
        } else if (!flushedFile
            && k instanceof InlineKey.Record r
            && r.op() instanceof InlineOp.FileDelete f
            && f.tableId() == table
            && f.dataFileId() == x.getDataFileId()) {
          first =
              Math.min(
                  first,
                  ValueCodec.decode(k, e.getValue(), InlineFileDeleteValue.class)
                      .getBeginSnapshot());
        }
      }
    }
    return first == Long.MAX_VALUE ? n : first;
  }

  /** Whether a live chunk of {@code table} in {@code contents} holds {@code rowId}. */
  private static boolean chunkHolds(NavigableMap<byte[], byte[]> contents, long table, long rowId) {
    byte[] from = KeyCodec.encode(new InlineKey.ChunkLocator(table, rowId, 0, 0, 0));
    for (var e : contents.tailMap(from, true).entrySet()) {
      if (!(KeyCodec.decode(e.getKey()) instanceof InlineKey.ChunkLocator l)
          || l.tableId() != table) {
        return false;
      }
      InlineChunkRangeValue v = ValueCodec.decode(l, e.getValue(), InlineChunkRangeValue.class);
      if (v.getRowIdStart() <= rowId) {
        return true;
      }
    }
    return false;
  }

  private static Set<Long> ids(ChangeSet changes, ChangeKind kind) {
    Set<Long> out = new TreeSet<>();
    for (ChangeEntry e : changes.ofKind(kind)) {
      out.add(((ChangeEntry.ById) e).id());
    }
    return out;
  }
}
