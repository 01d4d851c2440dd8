package dev.moraine.core.verb;

import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.view.SnapshotView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One table's inline keys as a commit's premise holds them, read once per closure run: its insert
 * chunks (with their row ranges), chunk locators, row tombstones and inlined deletions of file
 * rows. Only what the premise snapshot can see counts: chunks begun, tombstones ended and file
 * deletions begun at or before it.
 *
 * <p>Why reading through the premise view is safe although inline keys are not versioned: the view
 * reads the store as it is now, which is the premise's state or newer. Anything newer was written
 * by a commit that landed after this attempt's store transaction began; that commit wrote {@code
 * sys/head}, so this attempt's submission fails and its closure runs again (CommitRunner). The
 * snapshot filters keep such keys out of a run whose writes would be refused anyway, so a run never
 * validates against, or deletes, a key its premise cannot see. (Locators are not filtered: a flush
 * deletes only those of the chunks it drains.) A verb that refuses on such a newer state does so
 * before any submission; the commit loop then finds the head moved and runs the closure again
 * rather than report the refusal (CommitRunner). Immutable.
 */
public final class InlineTableState {
  /** One insert chunk: its key and the rows it holds, ids {@code rowIdStart ..}. */
  record Chunk(InlineOp.InsertChunk op, long rowIdStart, long rowCount) {
    boolean covers(long rowId) {
      return Long.compareUnsigned(rowId, rowIdStart) >= 0
          && Long.compareUnsigned(rowId - rowIdStart, rowCount) < 0;
    }
  }

  final List<Chunk> chunks;
  final List<InlineKey.ChunkLocator> locators;
  final List<InlineKey.RowTombstone> tombstones;

  /**
   * Inlined deletions of file rows: (data file id, position in the file) to the snapshot that
   * deleted the row.
   */
  final Map<List<Long>, Long> fileDeletes;

  private InlineTableState(
      List<Chunk> chunks,
      List<InlineKey.ChunkLocator> locators,
      List<InlineKey.RowTombstone> tombstones,
      Map<List<Long>, Long> fileDeletes) {
    this.chunks = List.copyOf(chunks);
    this.locators = List.copyOf(locators);
    this.tombstones = List.copyOf(tombstones);
    this.fileDeletes = Map.copyOf(fileDeletes);
  }

  static InlineTableState read(SnapshotView premise, long tableId) {
    long at = premise.snapshotId();
    return premise.loadFor(
        v -> {
          List<Chunk> chunks = new ArrayList<>();
          scan(
              v,
              KeyPrefixes.inlineChunksOf(tableId),
              kv -> {
                Key key = KeyCodec.decode(kv.key());
                if (!(key instanceof InlineKey.Record r
                    && r.op() instanceof InlineOp.InsertChunk c)) {
                  throw new KeyspaceDataException(key.printable(), "not an insert chunk");
                }
                if (Long.compareUnsigned(c.beginSnapshot(), at) <= 0) {
                  InlineChunkValue value =
                      ValueCodec.decode(key, kv.value(), InlineChunkValue.class);
                  chunks.add(new Chunk(c, value.getRowIdStart(), value.getRowCount()));
                }
              });
          List<InlineKey.ChunkLocator> locators = new ArrayList<>();
          scan(
              v,
              KeyPrefixes.chunkLocatorsOf(tableId),
              kv -> locators.add((InlineKey.ChunkLocator) KeyCodec.decode(kv.key())));
          List<InlineKey.RowTombstone> tombstones = new ArrayList<>();
          scan(
              v,
              KeyPrefixes.rowTombstonesOf(tableId),
              kv -> {
                InlineKey.RowTombstone t = (InlineKey.RowTombstone) KeyCodec.decode(kv.key());
                if (Long.compareUnsigned(t.endSnapshot(), at) <= 0) {
                  tombstones.add(t);
                }
              });
          Map<List<Long>, Long> fileDeletes = new HashMap<>();
          scan(
              v,
              KeyPrefixes.inlineFileDeletesOf(tableId),
              kv -> {
                InlineKey.Record r = (InlineKey.Record) KeyCodec.decode(kv.key());
                InlineOp.FileDelete d = (InlineOp.FileDelete) r.op();
                InlineFileDeleteValue value =
                    ValueCodec.decode(r, kv.value(), InlineFileDeleteValue.class);
                if (Long.compareUnsigned(value.getBeginSnapshot(), at) <= 0) {
                  fileDeletes.put(List.of(d.dataFileId(), d.rowId()), value.getBeginSnapshot());
                }
              });
          return new InlineTableState(chunks, locators, tombstones, fileDeletes);
        });
  }

  private static void scan(KvReadView v, byte[] prefix, Consumer<KeyValue> sink) {
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        sink.accept(it.next());
      }
    }
  }

  /**
   * The latest chunk holding {@code rowId} (an id re-inlined by an update appears in a later
   * chunk), if any.
   */
  Optional<Chunk> chunkOf(long rowId) {
    Chunk found = null;
    for (Chunk c : chunks) {
      if (c.covers(rowId)
          && (found == null
              || Long.compareUnsigned(c.op().beginSnapshot(), found.op().beginSnapshot()) > 0
              || (c.op().beginSnapshot() == found.op().beginSnapshot()
                  && Long.compareUnsigned(c.op().chunkSeq(), found.op().chunkSeq()) > 0))) {
        found = c;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Whether a tombstone ends the version of {@code rowId} that {@code chunk} began. */
  boolean deleted(Chunk chunk, long rowId) {
    return tombstones.stream()
        .anyMatch(
            t ->
                t.rowId() == rowId
                    && Long.compareUnsigned(t.endSnapshot(), chunk.op().beginSnapshot()) > 0);
  }
}
