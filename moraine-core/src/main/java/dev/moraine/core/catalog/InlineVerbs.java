package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.FlushedInline;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.InlineChunkRangeValue;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteTableValue;
import dev.moraine.core.keyspace.proto.InlineFileDeleteValue;
import dev.moraine.core.keyspace.proto.InlineInlineDeleteValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Inlined data as verbs (RFC 0002 §9, RFC 0004 §3): rows inserted into a table's inline chunks,
 * rows deleted inline (inlined rows by tombstone, data-file rows by an inlined file deletion), and
 * a table's inlined rows flushed into a data file the caller wrote. {@link Transaction} documents
 * each verb's contract.
 *
 * <p>What is recorded follows stock DuckLake 1.5.5 for the same SQL with data inlining on: {@code
 * inlined_insert}, {@code inlined_delete} and {@code inline_flush} in {@code changes_made}; one
 * {@code next_file_id} per table an inlined insert goes to; deletes leave the table's record count
 * as it was; a flush backdates its data file to the first inlined snapshot, keeps the row ids, adds
 * only its bytes to the table's statistics, and registers a delete file for rows deleted while
 * inlined.
 *
 * <p>Every check runs before anything is staged, so a refused call stages nothing. Confined to the
 * thread running the closure, like {@link VerbState}.
 */
final class InlineVerbs {
  private final VerbState s;
  private final DataFileVerbs dataFiles;
  private final DeleteAndExpiryVerbs deleteFiles;

  /** The premise's inline keys per table, read on first use in this run. */
  private final Map<Long, InlineTableState> premiseState = new HashMap<>();

  /** Chunks staged per (table, schema version): the next chunk's sequence number. */
  private final Map<List<Long>, Long> chunkSeqs = new HashMap<>();

  /** The schema version each table's staged chunks were written under. */
  private final Map<Long, Long> insertedVersions = new HashMap<>();

  /** Row ids this run inlined, per table: [start, end) ranges. */
  private final Map<Long, List<long[]>> insertedRanges = new HashMap<>();

  private final Set<Long> deletedFrom = new HashSet<>();
  private final Set<Long> flushed = new HashSet<>();

  InlineVerbs(VerbState state, DataFileVerbs dataFiles, DeleteAndExpiryVerbs deleteFiles) {
    this.s = state;
    this.dataFiles = dataFiles;
    this.deleteFiles = deleteFiles;
  }

  // ---- insert ----------------------------------------------------------------------------------

  long insert(long tableId, List<List<Object>> rows) {
    if (rows == null || rows.isEmpty()) {
      throw new InvalidArgumentException("an inlined insert needs at least one row");
    }
    s.requireTable(tableId);
    refuseAfterFlush(tableId, "inline rows into");
    List<ColumnValue> columns = userColumns(tableId);
    List<List<Object>> checked = InlineRowEncoder.check(columns, rows);
    long version = currentSchemaVersion(tableId);
    InlineRowEncoder.Encoded encoded = InlineRowEncoder.encode(columns, checked);
    boolean schemaRecorded = schemaAlreadyRecorded(tableId, version, encoded.schema());
    TableStatsValue stats = s.requireStats(tableId);
    long rowIdStart = stats.getNextRowId();
    long n = checked.size();
    if (Long.compareUnsigned(rowIdStart + n, rowIdStart) < 0) {
      throw new InvalidArgumentException(
          "the rows would run past the largest row id of table " + Long.toUnsignedString(tableId));
    }
    // Checks are done; from here on everything is staged.
    s.staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setNextRowId(rowIdStart + n)
            .setRecordCount(stats.getRecordCount() + n)
            .build());
    // Stock DuckLake keeps a table's column statistics once it has any: it merges the new values
    // into the columns that have statistics and leaves a column without (one added after rows
    // were written) without; a table with none yet gets them for every column.
    boolean statsStarted = !s.tableColumnStatsRecords(tableId).isEmpty();
    for (int c = 0; c < columns.size(); c++) {
      ColumnValue column = columns.get(c);
      EntityKey key = new EntityKey.TableColumnStats(tableId, column.getColumnId());
      TableColumnStatsValue before = s.staged.get(key, TableColumnStatsValue.class).orElse(null);
      if (statsStarted && before == null) {
        continue;
      }
      List<Object> values = new ArrayList<>(checked.size());
      for (List<Object> row : checked) {
        values.add(row.get(c));
      }
      s.staged.put(key, InlineRowEncoder.mergeStats(tableId, column, values, before));
    }
    if (!schemaRecorded) {
      s.inline.put(
          new InlineKey.Schema(tableId, version),
          InlineSchemaValue.newBuilder()
              .setArrowSchema(com.google.protobuf.ByteString.copyFrom(encoded.schema()))
              .build());
    }
    long seq = chunkSeqs.merge(List.of(tableId, version), 1L, Long::sum) - 1;
    InlineOp.InsertChunk op = new InlineOp.InsertChunk(tableId, version, s.newSnapshotId, seq);
    s.inline.put(
        InlineKey.Record.live(op),
        InlineChunkValue.newBuilder()
            .setBody(com.google.protobuf.ByteString.copyFrom(encoded.body()))
            .setRowIdStart(rowIdStart)
            .setRowCount(n)
            .build());
    s.inline.put(
        new InlineKey.ChunkLocator(tableId, rowIdStart + n - 1, version, s.newSnapshotId, seq),
        InlineChunkRangeValue.newBuilder()
            .setRowIdStart(rowIdStart)
            .setSchemaVersion(version)
            .setBeginSnapshot(s.newSnapshotId)
            .setChunkSeq(seq)
            .build());
    if (insertedVersions.put(tableId, version) == null) {
      // Stock DuckLake advances next_file_id once per table a commit inlines rows into.
      s.nextFileId++;
    }
    insertedRanges
        .computeIfAbsent(tableId, t -> new ArrayList<>())
        .add(new long[] {rowIdStart, rowIdStart + n});
    s.record(
        DuckLakeOperation.INLINED_INSERT, new ChangeEntry.ById(ChangeKind.INLINED_INSERT, tableId));
    return rowIdStart;
  }

  /** The table's top-level live columns in table order: the fields of its inline chunks. */
  private List<ColumnValue> userColumns(long tableId) {
    List<ColumnValue> columns = new ArrayList<>();
    for (ColumnValue c : s.columnRecords(tableId)) {
      if (!c.hasParentColumn()) {
        columns.add(c);
      }
    }
    columns.sort(Comparator.comparing(ColumnValue::getColumnOrder, Long::compareUnsigned));
    return columns;
  }

  /**
   * The schema version the table's rows are inlined under: the one its shape last changed at, which
   * is this commit's own when this commit changes the table's shape.
   */
  private long currentSchemaVersion(long tableId) {
    if (s.schemaChangedIds.contains(tableId)) {
      return s.premiseRecord.getSchemaVersion() + 1;
    }
    List<SchemaVersionInfo> versions = s.staged.premise().schemaVersions(tableId);
    if (versions.isEmpty()) {
      throw new CorruptionException(
          "table " + Long.toUnsignedString(tableId) + " has no schema_versions record");
    }
    return versions.get(versions.size() - 1).schemaVersion();
  }

  /**
   * Whether (table, version) already has an Arrow schema record, in the premise or staged by this
   * run; refuses one that names other fields or types than {@code schema} (a version's schema is
   * fixed once written, RFC 0002 §9.1). Records are compared by their decoded fields, so a record
   * another writer laid out differently but with the same meaning is accepted.
   */
  private boolean schemaAlreadyRecorded(long tableId, long version, byte[] schema) {
    InlineKey.Schema key = new InlineKey.Schema(tableId, version);
    if (s.inline.touches(key)) {
      return true;
    }
    byte[] stored =
        s.staged.premise().loadFor(v -> v.get(dev.moraine.core.keyspace.key.KeyCodec.encode(key)));
    if (stored == null) {
      return false;
    }
    InlineSchemaValue value =
        dev.moraine.core.keyspace.value.ValueCodec.decode(key, stored, InlineSchemaValue.class);
    if (value.hasSameAsVersion()) {
      // A reference to another version's identical record (written by the SQL path); the chunks
      // of this version decode against that record, which this run does not re-check.
      return true;
    }
    Schema recorded = InlineArrow.decodeSchema(key, value.getArrowSchema().toByteArray());
    Schema mine = InlineArrow.decodeSchema(key, schema);
    if (!shape(recorded).equals(shape(mine))) {
      throw new InvalidArgumentException(
          "table "
              + Long.toUnsignedString(tableId)
              + " already records a different inline schema for schema version "
              + Long.toUnsignedString(version)
              + " ("
              + shape(recorded)
              + ", not "
              + shape(mine)
              + ")");
    }
    return true;
  }

  private static List<String> shape(Schema schema) {
    List<String> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      out.add(f.getName() + ":" + f.getType());
    }
    return out;
  }

  // ---- delete ----------------------------------------------------------------------------------

  void deleteRow(long tableId, long rowId) {
    s.requireTable(tableId);
    refuseAfterFlush(tableId, "delete rows inline from");
    InlineTableState premise = premiseState(tableId);
    Optional<InlineTableState.Chunk> chunk = premise.chunkOf(rowId);
    if (chunk.isPresent()) {
      InlineKey.RowTombstone tombstone =
          new InlineKey.RowTombstone(tableId, rowId, s.newSnapshotId);
      if (premise.deleted(chunk.get(), rowId) || s.inline.touches(tombstone)) {
        throw gone(tableId, rowId, "was already deleted");
      }
      s.inline.put(
          tombstone, InlineInlineDeleteValue.newBuilder().setEndSnapshot(s.newSnapshotId).build());
      deletedFrom.add(tableId);
      s.record(
          DuckLakeOperation.INLINED_DELETE,
          new ChangeEntry.ById(ChangeKind.INLINED_DELETE, tableId));
      return;
    }
    for (DataFileValue file : s.dataFileRecords(tableId)) {
      long start = file.getRowIdStart();
      if (Long.compareUnsigned(rowId, start) < 0
          || Long.compareUnsigned(rowId - start, file.getRecordCount()) >= 0) {
        continue;
      }
      if (file.getBeginSnapshot() == s.newSnapshotId) {
        throw new InvalidArgumentException(
            "row "
                + Long.toUnsignedString(rowId)
                + " is in data file "
                + Long.toUnsignedString(file.getDataFileId())
                + ", which this commit registers; leave the row out of the file instead");
      }
      long position = rowId - start;
      InlineKey.Record key =
          InlineKey.Record.live(new InlineOp.FileDelete(tableId, file.getDataFileId(), position));
      if (premise.fileDeletes.containsKey(List.of(file.getDataFileId(), position))
          || s.inline.touches(key)) {
        throw gone(tableId, rowId, "was already deleted");
      }
      s.inline.put(
          key, InlineFileDeleteValue.newBuilder().setBeginSnapshot(s.newSnapshotId).build());
      s.inline.put(
          new InlineKey.FileDeleteTable(tableId), InlineFileDeleteTableValue.getDefaultInstance());
      deletedFrom.add(tableId);
      s.record(
          DuckLakeOperation.INLINED_FILE_DELETE,
          new ChangeEntry.ById(ChangeKind.INLINED_DELETE, tableId));
      return;
    }
    for (long[] range : insertedRanges.getOrDefault(tableId, List.of())) {
      if (Long.compareUnsigned(rowId, range[0]) >= 0 && Long.compareUnsigned(rowId, range[1]) < 0) {
        throw new InvalidArgumentException(
            "row "
                + Long.toUnsignedString(rowId)
                + " of table "
                + Long.toUnsignedString(tableId)
                + " is inlined by this same commit; leave it out of the insert instead");
      }
    }
    throw gone(tableId, rowId, "does not exist");
  }

  private static NotFoundException gone(long tableId, long rowId, String why) {
    return new NotFoundException(
        ErrorCode.NOT_FOUND,
        "row "
            + Long.toUnsignedString(rowId)
            + " of table "
            + Long.toUnsignedString(tableId)
            + " "
            + why);
  }

  // ---- flush -----------------------------------------------------------------------------------

  FlushedInline flush(long tableId, InlineFlush request) {
    if (request == null) {
      throw new InvalidArgumentException("the flush request must not be null");
    }
    s.requireTable(tableId);
    if (insertedVersions.containsKey(tableId) || deletedFrom.contains(tableId)) {
      throw new InvalidArgumentException(
          "this commit already inlines into or deletes inline from table "
              + Long.toUnsignedString(tableId)
              + "; flush it in a commit of its own");
    }
    refuseAfterFlush(tableId, "flush");
    InlineTableState premise = premiseState(tableId);
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
      long id = stageDeleteFile(tableId, target, e.getValue(), begins.size(), first);
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
    flushed.add(tableId);
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
    request.rowDeletes().ifPresent(InlineVerbs::checkDeleteFile);
    return new RowsPlan(rowIdStart, rowCount, firstBegin, lastBegin, deletedAt);
  }

  /** The inline deletions of data-file rows a flush moves into delete files, per data file. */
  private record FileDeletesPlan(Map<Long, List<Long>> begins) {}

  private FileDeletesPlan planFileDeletes(
      long tableId, InlineTableState premise, long through, InlineFlush request) {
    Map<Long, List<Long>> begins = new TreeMap<>(Long::compareUnsigned);
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
      if (s.staged.get(new EntityKey.DataFile(tableId, target), DataFileValue.class).isEmpty()) {
        throw new InvalidArgumentException(
            "data file "
                + Long.toUnsignedString(target)
                + " has rows deleted inline but is no longer live; expire its deletions with it");
      }
    }
    return new FileDeletesPlan(begins);
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
    return deleteFiles.stageDeleteFile(
        tableId,
        new NewDeleteFile(
            target,
            file.path(),
            file.pathIsRelative(),
            file.format(),
            count,
            file.fileSizeBytes(),
            file.footerSize(),
            Optional.empty()),
        beginSnapshot);
  }

  // ---- shared ----------------------------------------------------------------------------------

  /**
   * Checks, once the closure has returned, that every table this run inlined into still has the
   * schema version its chunks were written under (a later verb of the closure may have changed the
   * table's shape).
   *
   * @throws InvalidArgumentException if one does not; the commit then writes nothing
   */
  void checkVersions() {
    for (Map.Entry<Long, Long> e : insertedVersions.entrySet()) {
      if (s.liveTable(e.getKey()).isPresent() && currentSchemaVersion(e.getKey()) != e.getValue()) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(e.getKey())
                + " changed shape after rows were inlined into it in the same commit; inline"
                + " after the change instead");
      }
    }
  }

  private void refuseAfterFlush(long tableId, String what) {
    if (flushed.contains(tableId)) {
      throw new InvalidArgumentException(
          "this commit flushes table "
              + Long.toUnsignedString(tableId)
              + "'s inlined data; "
              + what
              + " it in another commit");
    }
  }

  private InlineTableState premiseState(long tableId) {
    return premiseState.computeIfAbsent(tableId, t -> InlineTableState.read(s.staged.premise(), t));
  }
}
