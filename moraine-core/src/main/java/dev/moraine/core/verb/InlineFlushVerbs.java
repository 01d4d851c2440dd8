package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.FlushedInline;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.InlineSchemaDroppedValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Flushing a table's inlined data into files the caller wrote, as {@code
 * ducklake_flush_inlined_data} does (RFC 0004 §3); {@link Transaction#flushInlined} documents the
 * contract. Every check runs before anything is staged, so a refused flush stages nothing. Confined
 * to the thread running the closure, like {@link VerbState}.
 */
public final class InlineFlushVerbs {
  private final VerbState s;
  private final InlineRun run;
  private final DataFileVerbs dataFiles;
  private final DeleteAndExpiryVerbs deleteFiles;

  public InlineFlushVerbs(
      VerbState state, InlineRun run, DataFileVerbs dataFiles, DeleteAndExpiryVerbs deleteFiles) {
    this.s = state;
    this.run = run;
    this.dataFiles = dataFiles;
    this.deleteFiles = deleteFiles;
  }

  public FlushedInline flush(long tableId, InlineFlush request) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "flushInlined");
    if (request == null) {
      throw new InvalidArgumentException("the flush request must not be null");
    }
    s.requireTable(tableId);
    if (run.insertedVersions.containsKey(tableId) || run.deletedFrom.contains(tableId)) {
      throw new InvalidArgumentException(
          "this commit already inlines into or deletes inline from table "
              + Long.toUnsignedString(tableId)
              + "; flush it in a commit of its own");
    }
    run.refuseAfterFlush(tableId, "flush");
    InlineTableState premise = run.premiseState(tableId);
    long through = request.through().orElse(s.premiseRecord.getSnapshotId());
    if (Long.compareUnsigned(through, s.premiseRecord.getSnapshotId()) > 0) {
      throw new InvalidArgumentException(
          "the flush reads through snapshot "
              + Long.toUnsignedString(through)
              + ", past this commit's premise "
              + Long.toUnsignedString(s.premiseRecord.getSnapshotId()));
    }
    // The chunks the caller's file holds: those begun by the snapshot it read. Later ones (a
    // concurrent insert this commit's re-run now sees) stay inlined.
    List<InlineTableState.Chunk> flushedChunks =
        premise.chunks.stream()
            .filter(c -> Long.compareUnsigned(c.op().beginSnapshot(), through) <= 0)
            .toList();
    if (flushedChunks.isEmpty() && premise.fileDeletes.isEmpty()) {
      throw new InvalidArgumentException(
          "table " + Long.toUnsignedString(tableId) + " has no inlined rows or deletions to flush");
    }
    RowsPlan rows = planRows(tableId, premise, flushedChunks, through, request);
    FileDeletesPlan files = planFileDeletes(tableId, premise, through, request);
    IndexUpkeep.Derived reindexed =
        indexes.isEmpty() || rows == null
            ? null
            : reindex(tableId, indexes, rows, through, request);
    // Every check is done (the data file's own ones run inside stageFlushed before it stages
    // anything, and those of each delete file above); from here on everything is staged. File ids
    // go as stock DuckLake gives them: the flushed data file, the delete files of data files by
    // data file id, then the delete file of the flushed rows.
    OptionalLong dataFileId = OptionalLong.empty();
    if (rows != null) {
      long id =
          dataFiles.stageFlushed(
              tableId, request.dataFile().orElseThrow(), rows.firstBegin, rows.rowIdStart);
      // Stock DuckLake marks the flushed file with the last snapshot its rows were inlined at.
      EntityKey key = new EntityKey.DataFile(tableId, id);
      s.staged.put(
          key,
          s.staged.get(key, DataFileValue.class).orElseThrow().toBuilder()
              .setPartialMax(rows.lastBegin)
              .build());
      dataFileId = OptionalLong.of(id);
    }
    Map<Long, Long> fileDeleteIds = new TreeMap<>(Long::compareUnsigned);
    for (Map.Entry<Long, FlushDeleteFile> e : request.fileDeletes().entrySet()) {
      long target = e.getKey();
      List<Long> begins = files.begins.get(target);
      long first = begins.stream().min(Long::compareUnsigned).orElseThrow();
      long last = begins.stream().max(Long::compareUnsigned).orElseThrow();
      long id =
          files.ended.contains(target)
              ? deleteFiles.stageDeleteFileOfEndedDataFile(
                  tableId, newDeleteFile(target, e.getValue(), begins.size()), first)
              : stageDeleteFile(tableId, target, e.getValue(), begins.size(), first);
      // Stock DuckLake marks such a delete file with the last snapshot its rows were deleted at.
      EntityKey key = new EntityKey.DeleteFile(tableId, id);
      s.staged.put(
          key,
          s
              .staged
              .get(key, dev.moraine.core.keyspace.proto.DeleteFileValue.class)
              .orElseThrow()
              .toBuilder()
              .setPartialMax(last)
              .build());
      fileDeleteIds.put(target, id);
      s.deletedDataFileIds.add(target);
    }
    OptionalLong rowDeleteId = OptionalLong.empty();
    if (rows != null && !rows.deletedAt.isEmpty()) {
      long first = rows.deletedAt.values().stream().min(Long::compareUnsigned).orElseThrow();
      rowDeleteId =
          OptionalLong.of(
              stageDeleteFile(
                  tableId,
                  dataFileId.getAsLong(),
                  request.rowDeletes().orElseThrow(),
                  rows.deletedAt.size(),
                  first));
    }
    Set<List<Long>> drained = new HashSet<>();
    for (InlineTableState.Chunk c : flushedChunks) {
      s.inline.delete(InlineKey.Record.live(c.op()));
      drained.add(List.of(c.op().schemaVersion(), c.op().beginSnapshot(), c.op().chunkSeq()));
    }
    for (InlineKey.ChunkLocator l : premise.locators) {
      if (drained.contains(List.of(l.schemaVersion(), l.beginSnapshot(), l.chunkSeq()))) {
        s.inline.delete(l);
      }
    }
    if (rows != null) {
      for (InlineKey.RowTombstone t : premise.tombstones) {
        if (rows.covers(t.rowId())) {
          s.inline.delete(t);
        }
      }
    }
    for (List<Long> d : premise.fileDeletes.keySet()) {
      s.inline.delete(InlineKey.Record.live(new InlineOp.FileDelete(tableId, d.get(0), d.get(1))));
    }
    if (reindexed != null) {
      s.indexes.take(reindexed);
    }
    // As stock DuckLake's flush: every inlined-data table of the table but the newest leaves
    // ducklake_inlined_data_tables. The schema record stays, so the version's name keeps resolving
    // for a reader that listed it before (RFC 0002 §9.1); the newest keeps taking inserts.
    List<Long> registered = premise.registeredVersions;
    for (int i = 0; i < registered.size() - 1; i++) {
      s.inline.put(
          new InlineKey.SchemaDropped(tableId, registered.get(i)),
          InlineSchemaDroppedValue.getDefaultInstance());
    }
    run.flushed.add(tableId);
    if (!fileDeleteIds.isEmpty()) {
      s.record(
          DuckLakeOperation.DELETE_FILE,
          new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, tableId));
    }
    s.record(
        DuckLakeOperation.FLUSH_INLINED_DATA,
        new ChangeEntry.ById(ChangeKind.INLINE_FLUSH, tableId));
    return new FlushedInline(
        dataFileId,
        rowDeleteId,
        rows == null ? 0 : rows.rowIdStart,
        rows == null ? 0 : rows.rowCount,
        rows == null ? List.of() : new ArrayList<>(rows.deletedAt.keySet()),
        fileDeleteIds);
  }

  /**
   * The index work of a flush, as the Rust crate's SQL path does it: the flushed rows' entries are
   * derived again from the data file (through the catalog's {@code FileIndexValues}), after the
   * entries their inlined versions had are given up. The keys are the same but for a {@code uuid},
   * stored as text inlined and as 16 bytes in a file (RFC 0002 §10). Rows deleted while inlined
   * have no entries and get none. Checked, not yet taken.
   *
   * @throws dev.moraine.core.catalog.IndexedTableException if the catalog has no {@code
   *     FileIndexValues}
   * @throws InvalidArgumentException if the file does not give the flushed rows
   */
  private IndexUpkeep.Derived reindex(
      long tableId, List<IndexInfo> indexes, RowsPlan rows, long through, InlineFlush request) {
    long at = s.premiseRecord.getSnapshotId();
    List<InlinedRows.Row> live =
        s.staged.premise().loadFor(v -> InlineRowsReader.read(v, tableId, at)).rows().stream()
            .filter(
                r ->
                    Long.compareUnsigned(r.beginSnapshot(), through) <= 0 && rows.covers(r.rowId()))
            .toList();
    IndexUpkeep.Derived removed =
        s.indexes.removalsOfRows(tableId, indexes, s.columnRecords(tableId), live, "flushInlined");
    long[] positions = live.stream().mapToLong(r -> r.rowId() - rows.rowIdStart).sorted().toArray();
    NewDataFile file = request.dataFile().orElseThrow();
    DataFileInfo planned = DataFileVerbs.planned(tableId, file, rows.firstBegin, rows.rowIdStart);
    IndexUpkeep.Derived added =
        s.indexes.readFileRows(tableId, indexes, planned, positions, true, "flushInlined");
    IndexUpkeep.Derived both = IndexUpkeep.both(removed, added);
    s.indexes.check(both);
    return both;
  }

  /** The inlined rows a flush moves into its data file. */
  private record RowsPlan(
      long rowIdStart,
      long rowCount,
      long firstBegin,
      long lastBegin,
      TreeMap<Long, Long> deletedAt) {
    boolean covers(long rowId) {
      return Long.compareUnsigned(rowId, rowIdStart) >= 0
          && Long.compareUnsigned(rowId - rowIdStart, rowCount) < 0;
    }
  }

  /**
   * Checks the inlined rows against the request's data file and row delete file; null when nothing
   * is inlined (and the request names no data file).
   */
  private RowsPlan planRows(
      long tableId,
      InlineTableState premise,
      List<InlineTableState.Chunk> flushedChunks,
      long through,
      InlineFlush request) {
    if (flushedChunks.isEmpty()) {
      if (request.dataFile().isPresent() || request.rowDeletes().isPresent()) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(tableId)
                + " has no inlined rows; the flush takes no"
                + " data file and no row delete file");
      }
      return null;
    }
    NewDataFile file =
        request
            .dataFile()
            .orElseThrow(
                () ->
                    new InvalidArgumentException(
                        "table "
                            + Long.toUnsignedString(tableId)
                            + " has inlined rows; the flush needs the data file holding them"));
    Set<Long> versions = new TreeSet<>(Long::compareUnsigned);
    flushedChunks.forEach(c -> versions.add(c.op().schemaVersion()));
    if (versions.size() > 1) {
      throw new InvalidArgumentException(
          "table "
              + Long.toUnsignedString(tableId)
              + " has inlined rows under schema versions "
              + versions
              + "; this verb flushes the rows of one schema version into one file");
    }
    List<InlineTableState.Chunk> chunks = new ArrayList<>(flushedChunks);
    chunks.sort(Comparator.comparing(InlineTableState.Chunk::rowIdStart, Long::compareUnsigned));
    long rowIdStart = chunks.get(0).rowIdStart();
    long next = rowIdStart;
    long firstBegin = chunks.get(0).op().beginSnapshot();
    long lastBegin = firstBegin;
    for (InlineTableState.Chunk c : chunks) {
      if (c.rowIdStart() != next) {
        throw new InvalidArgumentException(
            "the inlined row ids of table "
                + Long.toUnsignedString(tableId)
                + " are not one dense range (a chunk starts at "
                + Long.toUnsignedString(c.rowIdStart())
                + ", expected "
                + Long.toUnsignedString(next)
                + "); one data file cannot keep them");
      }
      next += c.rowCount();
      if (Long.compareUnsigned(c.op().beginSnapshot(), firstBegin) < 0) {
        firstBegin = c.op().beginSnapshot();
      }
      if (Long.compareUnsigned(c.op().beginSnapshot(), lastBegin) > 0) {
        lastBegin = c.op().beginSnapshot();
      }
    }
    long rowCount = next - rowIdStart;
    if (file.recordCount() != rowCount) {
      throw new InvalidArgumentException(
          "the flushed file holds "
              + file.recordCount()
              + " rows; table "
              + Long.toUnsignedString(tableId)
              + " has "
              + rowCount
              + " inlined rows (deleted ones included) to flush");
    }
    // The rows deleted while inlined, each with the first snapshot that deleted it.
    TreeMap<Long, Long> deletedAt = new TreeMap<>(Long::compareUnsigned);
    for (InlineKey.RowTombstone t : premise.tombstones) {
      if (Long.compareUnsigned(t.rowId(), rowIdStart) < 0
          || Long.compareUnsigned(t.rowId() - rowIdStart, rowCount) >= 0) {
        continue;
      }
      if (Long.compareUnsigned(t.endSnapshot(), through) > 0) {
        throw new InvalidArgumentException(
            "inlined row "
                + Long.toUnsignedString(t.rowId())
                + " of table "
                + Long.toUnsignedString(tableId)
                + " was deleted at snapshot "
                + Long.toUnsignedString(t.endSnapshot())
                + ", after the snapshot the flush read; flush again from a newer one");
      }
      deletedAt.merge(
          t.rowId(), t.endSnapshot(), (a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b);
    }
    if (!deletedAt.isEmpty() && request.rowDeletes().isEmpty()) {
      throw new InvalidArgumentException(
          deletedAt.size()
              + " inlined row(s) of table "
              + Long.toUnsignedString(tableId)
              + " were deleted; the flush needs a delete file listing their positions");
    }
    if (deletedAt.isEmpty() && request.rowDeletes().isPresent()) {
      throw new InvalidArgumentException(
          "no inlined row of table "
              + Long.toUnsignedString(tableId)
              + " was deleted; the flush takes no row delete file");
    }
    request.rowDeletes().ifPresent(InlineFlushVerbs::checkDeleteFile);
    return new RowsPlan(rowIdStart, rowCount, firstBegin, lastBegin, deletedAt);
  }

  /**
   * The inline deletions of data-file rows a flush moves into delete files, per data file, and the
   * data files among them that are no longer live.
   */
  private record FileDeletesPlan(Map<Long, List<Long>> begins, Set<Long> ended) {}

  private FileDeletesPlan planFileDeletes(
      long tableId, InlineTableState premise, long through, InlineFlush request) {
    Map<Long, List<Long>> begins = new TreeMap<>(Long::compareUnsigned);
    Set<Long> ended = new HashSet<>();
    premise.fileDeletes.forEach(
        (fileAndPosition, begin) -> {
          if (Long.compareUnsigned(begin, through) > 0) {
            throw new InvalidArgumentException(
                "a row of data file "
                    + Long.toUnsignedString(fileAndPosition.get(0))
                    + " was deleted inline at snapshot "
                    + Long.toUnsignedString(begin)
                    + ", after the snapshot the flush read; flush again from a newer one");
          }
          begins.computeIfAbsent(fileAndPosition.get(0), f -> new ArrayList<>()).add(begin);
        });
    if (!begins.keySet().equals(request.fileDeletes().keySet())) {
      throw new InvalidArgumentException(
          "data files "
              + begins.keySet()
              + " of table "
              + Long.toUnsignedString(tableId)
              + " have rows deleted inline; the flush names delete files for "
              + request.fileDeletes().keySet());
    }
    for (Map.Entry<Long, FlushDeleteFile> e : request.fileDeletes().entrySet()) {
      checkDeleteFile(e.getValue());
      long target = e.getKey();
      if (s.deleteFileRecords(tableId).stream().anyMatch(d -> d.getDataFileId() == target)) {
        throw new InvalidArgumentException(
            "data file "
                + Long.toUnsignedString(target)
                + " already has a live delete file; its inline deletions cannot get a second");
      }
      // A data file ended since its rows were deleted inline (expireDataFile) still gets its
      // delete file, as stock DuckLake 1.5.5 writes one: backdated to the first deletion, it keeps
      // the rows deleted at the snapshots where the file was live, and no later snapshot reads it.
      if (s.staged.get(new EntityKey.DataFile(tableId, target), DataFileValue.class).isEmpty()) {
        ended.add(target);
      }
    }
    return new FileDeletesPlan(begins, ended);
  }

  private static void checkDeleteFile(FlushDeleteFile file) {
    if (file == null) {
      throw new InvalidArgumentException("a delete file of the flush is null");
    }
    Names.nonEmpty("delete file path", file.path());
    Names.nonEmpty("delete file format", file.format());
    VerbState.nonNegative("delete file size", file.fileSizeBytes());
    VerbState.nonNegative("delete file footer size", file.footerSize());
  }

  private long stageDeleteFile(
      long tableId, long target, FlushDeleteFile file, long count, long beginSnapshot) {
    return deleteFiles.stageDeleteFile(tableId, newDeleteFile(target, file, count), beginSnapshot);
  }

  private static NewDeleteFile newDeleteFile(long target, FlushDeleteFile file, long count) {
    return new NewDeleteFile(
        target,
        file.path(),
        file.pathIsRelative(),
        file.format(),
        count,
        file.fileSizeBytes(),
        file.footerSize(),
        Optional.empty());
  }
}
