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
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
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
    List<PartPlan> parts = planParts(tableId, premise, flushedChunks, through, request);
    FileDeletesPlan files = planFileDeletes(tableId, premise, through, request);
    IndexUpkeep.Derived reindexed =
        indexes.isEmpty() || parts.isEmpty() ? null : reindex(tableId, indexes, parts, through);
    // Every check is done (each data file's own ones run inside stageFlushed before it stages
    // anything, and those of each delete file above); from here on everything is staged. File ids
    // go as stock DuckLake gives them: the flushed data files in the parts' order, the delete files
    // of data files by data file id, then the delete files of the flushed rows, part by part.
    List<Long> dataFileIds = new ArrayList<>();
    for (PartPlan part : parts) {
      long id =
          dataFiles.stageFlushed(
              tableId,
              part.part.dataFile(),
              part.firstBegin,
              part.rowIds.get(0),
              !part.partitioned);
      // Stock DuckLake marks the flushed file with the last snapshot its rows were inlined at.
      EntityKey key = new EntityKey.DataFile(tableId, id);
      s.staged.put(
          key,
          s.staged.get(key, DataFileValue.class).orElseThrow().toBuilder()
              .setPartialMax(part.lastBegin)
              .build());
      dataFileIds.add(id);
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
    List<FlushedInline.DataFile> flushedFiles = new ArrayList<>();
    Set<Long> flushedRows = new HashSet<>();
    for (int i = 0; i < parts.size(); i++) {
      PartPlan part = parts.get(i);
      OptionalLong rowDeleteId = OptionalLong.empty();
      if (!part.deletedAt.isEmpty()) {
        long first = part.deletedAt.values().stream().min(Long::compareUnsigned).orElseThrow();
        rowDeleteId =
            OptionalLong.of(
                stageDeleteFile(
                    tableId,
                    dataFileIds.get(i),
                    part.part.rowDeletes().orElseThrow(),
                    part.deletedAt.size(),
                    first));
      }
      flushedRows.addAll(part.rowIds);
      flushedFiles.add(
          new FlushedInline.DataFile(
              dataFileIds.get(i),
              rowDeleteId,
              part.rowIds,
              new ArrayList<>(part.deletedAt.keySet())));
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
    for (InlineKey.RowTombstone t : premise.tombstones) {
      if (flushedRows.contains(t.rowId())) {
        s.inline.delete(t);
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
    // A version that keeps chunks (inlined after the snapshot the flush read) stays listed.
    Set<Long> keptVersions = new HashSet<>();
    for (InlineTableState.Chunk c : premise.chunks) {
      if (Long.compareUnsigned(c.op().beginSnapshot(), through) > 0) {
        keptVersions.add(c.op().schemaVersion());
      }
    }
    List<Long> registered = run.registeredVersions(tableId);
    for (int i = 0; i < registered.size() - 1; i++) {
      if (!keptVersions.contains(registered.get(i))) {
        s.inline.put(
            new InlineKey.SchemaDropped(tableId, registered.get(i)),
            InlineSchemaDroppedValue.getDefaultInstance());
      }
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
    return new FlushedInline(flushedFiles, fileDeleteIds);
  }

  /**
   * The index work of a flush, as the Rust crate's SQL path does it: the flushed rows' entries are
   * derived again from the data files (through the catalog's {@code FileIndexValues}), after the
   * entries their inlined versions had are given up. The keys are the same but for a {@code uuid},
   * stored as text inlined and as 16 bytes in a file (RFC 0002 §10). Rows deleted while inlined
   * have no entries and get none. Checked, not yet taken.
   *
   * @throws dev.moraine.core.catalog.IndexedTableException if the catalog has no {@code
   *     FileIndexValues}
   * @throws InvalidArgumentException if a file does not give its rows
   */
  private IndexUpkeep.Derived reindex(
      long tableId, List<IndexInfo> indexes, List<PartPlan> parts, long through) {
    long at = s.premiseRecord.getSnapshotId();
    Map<Long, PartPlan> partOf = new HashMap<>();
    parts.forEach(p -> p.rowIds.forEach(id -> partOf.put(id, p)));
    List<InlinedRows.Row> live =
        s.staged.premise().loadFor(v -> InlineRowsReader.read(v, tableId, at)).rows().stream()
            .filter(
                r ->
                    Long.compareUnsigned(r.beginSnapshot(), through) <= 0
                        && partOf.containsKey(r.rowId()))
            .toList();
    IndexUpkeep.Derived derived =
        s.indexes.removalsOfRows(tableId, indexes, s.columnRecords(tableId), live, "flushInlined");
    for (PartPlan part : parts) {
      long[] positions =
          live.stream()
              .filter(r -> partOf.get(r.rowId()) == part)
              .mapToLong(
                  r -> Collections.binarySearch(part.rowIds, r.rowId(), Long::compareUnsigned))
              .sorted()
              .toArray();
      DataFileInfo planned =
          DataFileVerbs.planned(tableId, part.part.dataFile(), part.firstBegin, part.rowIds.get(0));
      derived =
          IndexUpkeep.both(
              derived,
              s.indexes.readFileRows(tableId, indexes, planned, positions, true, "flushInlined"));
    }
    s.indexes.check(derived);
    return derived;
  }

  /**
   * One data file of a flush as checked: the part, the ids of its rows ascending, their schema
   * version, the first and last snapshot they were inlined at, those deleted while inlined (each
   * with the first snapshot that deleted it), and whether they were inlined while the table was
   * partitioned.
   */
  private record PartPlan(
      InlineFlush.Part part,
      List<Long> rowIds,
      long version,
      long firstBegin,
      long lastBegin,
      TreeMap<Long, Long> deletedAt,
      boolean partitioned) {}

  /**
   * Checks the inlined rows against the request's parts: every flushed row in exactly one part, a
   * part's rows under one schema version and as many as its file holds, its row delete file present
   * exactly when some of them were deleted, and its partition values those of its rows (RFC 0004
   * §3). Empty when nothing is inlined (and the request names no part).
   */
  private List<PartPlan> planParts(
      long tableId,
      InlineTableState premise,
      List<InlineTableState.Chunk> flushedChunks,
      long through,
      InlineFlush request) {
    String table = Long.toUnsignedString(tableId);
    if (flushedChunks.isEmpty()) {
      if (!request.parts().isEmpty()) {
        throw new InvalidArgumentException(
            "table " + table + " has no inlined rows; the flush takes no data file");
      }
      return List.of();
    }
    if (request.parts().isEmpty()) {
      throw new InvalidArgumentException(
          "table " + table + " has inlined rows; the flush needs the data files holding them");
    }
    // Every flushed row, with the chunk holding it.
    TreeMap<Long, InlineTableState.Chunk> chunkOf = new TreeMap<>(Long::compareUnsigned);
    for (InlineTableState.Chunk c : flushedChunks) {
      for (long k = 0; k < c.rowCount(); k++) {
        if (chunkOf.put(c.rowIdStart() + k, c) != null) {
          throw new InvalidArgumentException(
              "inlined row "
                  + Long.toUnsignedString(c.rowIdStart() + k)
                  + " of table "
                  + table
                  + " has two versions (an inline update); this verb flushes one version a row");
        }
      }
    }
    // The rows deleted while inlined, each with the first snapshot that deleted it.
    TreeMap<Long, Long> deletedAt = new TreeMap<>(Long::compareUnsigned);
    for (InlineKey.RowTombstone t : premise.tombstones) {
      if (!chunkOf.containsKey(t.rowId())) {
        continue;
      }
      if (Long.compareUnsigned(t.endSnapshot(), through) > 0) {
        throw new InvalidArgumentException(
            "inlined row "
                + Long.toUnsignedString(t.rowId())
                + " of table "
                + table
                + " was deleted at snapshot "
                + Long.toUnsignedString(t.endSnapshot())
                + ", after the snapshot the flush read; flush again from a newer one");
      }
      deletedAt.merge(
          t.rowId(), t.endSnapshot(), (a, b) -> Long.compareUnsigned(a, b) <= 0 ? a : b);
    }
    List<List<Long>> partRows = new ArrayList<>();
    List<InlineFlush.Part> requested = request.parts();
    if (requested.size() == 1 && requested.get(0).rowIds().isEmpty()) {
      // A file given for "every inlined row" is read by position from row_id_start unless it
      // carries the row-id column, which nothing here can see: its rows must be one run.
      List<Long> all = new ArrayList<>(chunkOf.keySet());
      if (all.get(all.size() - 1) - all.get(0) != all.size() - 1) {
        throw new InvalidArgumentException(
            "the inlined row ids of table "
                + table
                + " are not one dense range; name each data file's rows (InlineFlush.ofParts),"
                + " whose files carry DuckLake's row-id column");
      }
      partRows.add(all);
    } else {
      Set<Long> seen = new HashSet<>();
      for (InlineFlush.Part part : requested) {
        List<Long> ids =
            new ArrayList<>(
                part.rowIds()
                    .orElseThrow(
                        () ->
                            new InvalidArgumentException(
                                "a flush of several data files names the rows of each")));
        if (ids.isEmpty()) {
          throw new InvalidArgumentException("a data file of the flush names no row");
        }
        ids.sort(Long::compareUnsigned);
        for (Long id : ids) {
          if (!chunkOf.containsKey(id)) {
            throw new InvalidArgumentException(
                "row "
                    + Long.toUnsignedString(id)
                    + " is not an inlined row of table "
                    + table
                    + " the flush reads");
          }
          if (!seen.add(id)) {
            throw new InvalidArgumentException(
                "inlined row " + Long.toUnsignedString(id) + " is in two data files of the flush");
          }
        }
        partRows.add(ids);
      }
      if (seen.size() != chunkOf.size()) {
        throw new InvalidArgumentException(
            "the flush's data files hold "
                + seen.size()
                + " of the "
                + chunkOf.size()
                + " inlined rows of table "
                + table
                + " (deleted ones included)");
      }
    }
    Optional<PartitionValue> spec = s.partitionRecords(tableId).stream().findFirst();
    FlushPartitionValues partitionValues =
        spec.map(p -> new FlushPartitionValues(s, tableId, p)).orElse(null);
    List<PartPlan> plans = new ArrayList<>();
    for (int i = 0; i < partRows.size(); i++) {
      InlineFlush.Part part = requested.get(i);
      List<Long> ids = partRows.get(i);
      Set<Long> versions = new TreeSet<>(Long::compareUnsigned);
      long firstBegin = chunkOf.get(ids.get(0)).op().beginSnapshot();
      long lastBegin = firstBegin;
      TreeMap<Long, Long> deleted = new TreeMap<>(Long::compareUnsigned);
      for (Long id : ids) {
        InlineTableState.Chunk c = chunkOf.get(id);
        versions.add(c.op().schemaVersion());
        long begin = c.op().beginSnapshot();
        firstBegin = Long.compareUnsigned(begin, firstBegin) < 0 ? begin : firstBegin;
        lastBegin = Long.compareUnsigned(begin, lastBegin) > 0 ? begin : lastBegin;
        if (deletedAt.containsKey(id)) {
          deleted.put(id, deletedAt.get(id));
        }
      }
      if (versions.size() > 1) {
        throw new InvalidArgumentException(
            "a data file of the flush holds rows of table "
                + table
                + " inlined under schema versions "
                + versions
                + "; stock DuckLake writes one file a version");
      }
      NewDataFile file = part.dataFile();
      if (file.recordCount() != ids.size()) {
        throw new InvalidArgumentException(
            "a flushed file holds "
                + file.recordCount()
                + " rows; its part of table "
                + table
                + " names "
                + ids.size()
                + " inlined rows (deleted ones included)");
      }
      if (!deleted.isEmpty() && part.rowDeletes().isEmpty()) {
        throw new InvalidArgumentException(
            deleted.size()
                + " inlined row(s) of table "
                + table
                + " in a flushed file were deleted; its part needs a delete file listing their"
                + " positions");
      }
      if (deleted.isEmpty() && part.rowDeletes().isPresent()) {
        throw new InvalidArgumentException(
            "no inlined row of table "
                + table
                + " in a flushed file was deleted; its part takes no row delete file");
      }
      part.rowDeletes().ifPresent(InlineFlushVerbs::checkDeleteFile);
      long version = versions.iterator().next();
      boolean partitioned =
          spec.isPresent()
              && Long.compareUnsigned(
                      run.versionBegin(tableId, version), spec.get().getBeginSnapshot())
                  >= 0;
      if (partitioned) {
        partitionValues.check(file, ids);
      } else if (!file.partitionValues().isEmpty()) {
        throw new InvalidArgumentException(
            "rows inlined into table "
                + table
                + " before it was partitioned go into a file without partition values");
      }
      // The file's own checks, before any part is staged.
      dataFiles.checkFlushed(tableId, file, !partitioned);
      plans.add(new PartPlan(part, ids, version, firstBegin, lastBegin, deleted, partitioned));
    }
    return plans;
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
