package dev.moraine.core.verb;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.inline.InlineColumnType;
import dev.moraine.core.inline.InlineLeaves;
import dev.moraine.core.inline.InlineRowEncoder;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.inline.InlineValues;
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
import dev.moraine.core.view.Records;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Inlined data as verbs (RFC 0002 §9, RFC 0004 §3): rows inserted into a table's inline chunks and
 * rows deleted inline (inlined rows by tombstone, data-file rows by an inlined file deletion); the
 * flush is {@link InlineFlushVerbs}'s. {@link Transaction} documents each verb's contract.
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
public final class InlineVerbs {
  private final VerbState s;
  private final InlineRun run;

  /** Which schema version rows go under, and its Arrow schema record. */
  private final InlineSchemaVersions schemas;

  /** Chunks staged per (table, schema version): the next chunk's sequence number. */
  private final Map<List<Long>, Long> chunkSeqs = new HashMap<>();

  public InlineVerbs(VerbState state, InlineRun run) {
    this.s = state;
    this.run = run;
    this.schemas = new InlineSchemaVersions(state, run);
  }

  // ---- insert ----------------------------------------------------------------------------------

  public long insert(long tableId, List<List<Object>> rows) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "insertInlined");
    if (rows == null || rows.isEmpty()) {
      throw new InvalidArgumentException("an inlined insert needs at least one row");
    }
    s.requireTable(tableId);
    run.refuseAfterFlush(tableId, "inline rows into");
    Chunk chunk = prepare(tableId, rows);
    TableStatsValue stats = s.requireStats(tableId);
    long rowIdStart = stats.getNextRowId();
    long n = chunk.rows.size();
    if (Long.compareUnsigned(rowIdStart + n, rowIdStart) < 0) {
      throw new InvalidArgumentException(
          "the rows would run past the largest row id of table " + Long.toUnsignedString(tableId));
    }
    if (!indexes.isEmpty()) {
      List<IndexUpkeep.Row> added = new ArrayList<>(chunk.rows.size());
      for (int i = 0; i < chunk.rows.size(); i++) {
        added.add(new IndexUpkeep.Row(chunk.rows.get(i), rowIdStart + i));
      }
      s.indexes.add(tableId, indexes, chunk.columns, added);
    }
    // Checks are done; from here on everything is staged.
    s.staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setNextRowId(rowIdStart + n)
            .setRecordCount(stats.getRecordCount() + n)
            .build());
    stage(chunk, rowIdStart, rowIdStart != 0);
    return rowIdStart;
  }

  /** Checked rows of a table, encoded as one chunk under the table's current schema version. */
  private record Chunk(
      long tableId,
      List<ColumnValue> columns,
      List<InlineColumnType> types,
      List<List<Object>> rows,
      long version,
      InlineRowEncoder.Encoded encoded,
      boolean schemaRecorded) {}

  /**
   * Checks and encodes rows for {@code tableId}; stages nothing.
   *
   * @throws InvalidArgumentException as {@link InlineValues#check}, or if the table's schema
   *     version records another inline schema
   */
  private Chunk prepare(long tableId, List<List<Object>> rows) {
    List<ColumnValue> all = s.columnRecords(tableId);
    List<ColumnValue> columns = InlineSchemaVersions.userColumns(all);
    List<InlineColumnType> types = InlineSchemaVersions.types(columns, all);
    List<List<Object>> checked = InlineValues.check(columns, types, rows);
    InlineRowEncoder.Encoded encoded = InlineRowEncoder.encode(columns, types, checked);
    long version = schemas.versionFor(tableId, encoded.schema());
    boolean schemaRecorded = schemas.alreadyRecorded(tableId, version, encoded.schema());
    return new Chunk(tableId, columns, types, checked, version, encoded, schemaRecorded);
  }

  /**
   * Stages a prepared chunk with its first row at {@code rowIdStart}: the rows' column statistics,
   * the version's schema record if it has none, the chunk and its locator, the table's one {@code
   * next_file_id} step, and {@code inlined_insert}. The caller stages the table's row counts.
   * {@code heldRows} says whether the table held rows before this chunk.
   */
  private void stage(Chunk chunk, long rowIdStart, boolean heldRows) {
    long tableId = chunk.tableId;
    long n = chunk.rows.size();
    boolean starts = s.startsColumnStats(tableId, heldRows);
    for (InlineLeaves.Leaf leaf : InlineLeaves.of(chunk.columns, chunk.types, chunk.rows)) {
      ColumnValue column = leaf.column();
      EntityKey key = new EntityKey.TableColumnStats(tableId, column.getColumnId());
      TableColumnStatsValue before = s.staged.get(key, TableColumnStatsValue.class).orElse(null);
      if (before == null && !starts) {
        continue;
      }
      s.staged.put(
          key, InlineRowEncoder.mergeStats(tableId, column, leaf.type(), leaf.values(), before));
    }
    long version = chunk.version;
    if (!chunk.schemaRecorded) {
      s.inline.put(
          new InlineKey.Schema(tableId, version),
          InlineSchemaValue.newBuilder()
              .setArrowSchema(com.google.protobuf.ByteString.copyFrom(chunk.encoded.schema()))
              .build());
    }
    long seq = chunkSeqs.merge(List.of(tableId, version), 1L, Long::sum) - 1;
    InlineOp.InsertChunk op = new InlineOp.InsertChunk(tableId, version, s.newSnapshotId, seq);
    s.inline.put(
        InlineKey.Record.live(op),
        InlineChunkValue.newBuilder()
            .setBody(com.google.protobuf.ByteString.copyFrom(chunk.encoded.body()))
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
    if (run.insertedVersions.put(tableId, version) == null) {
      // Stock DuckLake advances next_file_id once per table a commit inlines rows into.
      s.nextFileId++;
    }
    run.insertedRanges
        .computeIfAbsent(tableId, t -> new ArrayList<>())
        .add(new long[] {rowIdStart, rowIdStart + n});
    s.record(
        DuckLakeOperation.INLINED_INSERT, new ChangeEntry.ById(ChangeKind.INLINED_INSERT, tableId));
  }

  // ---- update ----------------------------------------------------------------------------------

  /**
   * Re-inlines an inlined row under its id, as stock DuckLake's UPDATE of an inlined row does: the
   * live version gets a tombstone at this commit's snapshot, and a one-row chunk holding the new
   * values begins there under the table's current schema version. The table's record count grows by
   * one and its next row id stays; the column statistics take in the new values.
   */
  public void updateRow(long tableId, long rowId, List<Object> values) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "updateRowInline");
    if (values == null) {
      throw new InvalidArgumentException("an inline update needs the row's new values");
    }
    s.requireTable(tableId);
    run.refuseAfterFlush(tableId, "update rows inline in");
    InlineTableState premise = run.premiseState(tableId);
    Optional<InlineTableState.Chunk> holder = premise.chunkOf(rowId);
    if (holder.isPresent()) {
      InlineKey.RowTombstone tombstone =
          new InlineKey.RowTombstone(tableId, rowId, s.newSnapshotId);
      if (premise.deleted(holder.get(), rowId) || s.inline.touches(tombstone)) {
        throw gone(tableId, rowId, "was already deleted or updated");
      }
      Chunk chunk = prepare(tableId, List.of(values));
      TableStatsValue stats = s.requireStats(tableId);
      if (!indexes.isEmpty()) {
        // The old version gives its entries up and the new one takes its own, as an UPDATE does
        // in the Rust implementation: a removal, then an addition, resolved removals first.
        s.indexes.replace(
            tableId,
            indexes,
            s.columnRecords(tableId),
            storedRow(tableId, holder.get(), rowId),
            chunk.columns,
            chunk.rows.get(0),
            "updateRowInline");
      }
      // Checks are done; from here on everything is staged.
      stageNewVersion(chunk, stats, rowId);
      stageTombstone(tombstone);
      return;
    }
    // A data-file row: stock DuckLake deletes it inline and inlines its new version under the
    // same row id.
    Optional<InlineKey.Record> fileRow = fileRowDelete(tableId, rowId, premise);
    if (fileRow.isPresent()) {
      Chunk chunk = prepare(tableId, List.of(values));
      TableStatsValue stats = s.requireStats(tableId);
      if (!indexes.isEmpty()) {
        IndexUpkeep.Derived removed =
            fileRowEntries(tableId, indexes, fileRow.get(), "updateRowInline");
        s.indexes.add(
            tableId,
            indexes,
            chunk.columns,
            List.of(new IndexUpkeep.Row(chunk.rows.get(0), rowId)),
            removed);
      }
      // Checks are done; from here on everything is staged.
      stageNewVersion(chunk, stats, rowId);
      stageFileRowDelete(tableId, fileRow.get());
      return;
    }
    refuseSameCommitRow(tableId, rowId, "put the new values in the insert instead");
    refuseUnplaceable(tableId, rowId);
    throw gone(tableId, rowId, "does not exist");
  }

  /**
   * Stages the new version of an updated row: its one-row chunk at {@code rowId}, and the table's
   * record count + 1 (stock DuckLake counts the new version as inserted and, as for any inline
   * delete, keeps the ended one counted); the next row id stays.
   */
  private void stageNewVersion(Chunk chunk, TableStatsValue stats, long rowId) {
    s.staged.put(
        new EntityKey.TableStats(chunk.tableId),
        stats.toBuilder().setRecordCount(stats.getRecordCount() + 1).build());
    stage(chunk, rowId, true);
  }

  /** Refuses a row id this run inlined itself, with {@code advice} on what to do instead. */
  private void refuseSameCommitRow(long tableId, long rowId, String advice) {
    for (long[] range : run.insertedRanges.getOrDefault(tableId, List.of())) {
      if (Long.compareUnsigned(rowId, range[0]) >= 0 && Long.compareUnsigned(rowId, range[1]) < 0) {
        throw new InvalidArgumentException(
            "row "
                + Long.toUnsignedString(rowId)
                + " of table "
                + Long.toUnsignedString(tableId)
                + " is inlined by this same commit; "
                + advice);
      }
    }
  }

  // ---- delete ----------------------------------------------------------------------------------

  public void deleteRow(long tableId, long rowId) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "deleteRowInline");
    s.requireTable(tableId);
    run.refuseAfterFlush(tableId, "delete rows inline from");
    InlineTableState premise = run.premiseState(tableId);
    Optional<InlineTableState.Chunk> chunk = premise.chunkOf(rowId);
    if (chunk.isPresent()) {
      InlineKey.RowTombstone tombstone =
          new InlineKey.RowTombstone(tableId, rowId, s.newSnapshotId);
      if (premise.deleted(chunk.get(), rowId) || s.inline.touches(tombstone)) {
        throw gone(tableId, rowId, "was already deleted");
      }
      if (!indexes.isEmpty()) {
        s.indexes.remove(
            tableId,
            indexes,
            s.columnRecords(tableId),
            storedRow(tableId, chunk.get(), rowId),
            "deleteRowInline");
      }
      stageTombstone(tombstone);
      return;
    }
    Optional<InlineKey.Record> fileRow = fileRowDelete(tableId, rowId, premise);
    if (fileRow.isPresent()) {
      if (!indexes.isEmpty()) {
        s.indexes.take(fileRowEntries(tableId, indexes, fileRow.get(), "deleteRowInline"));
      }
      stageFileRowDelete(tableId, fileRow.get());
      return;
    }
    refuseSameCommitRow(tableId, rowId, "leave it out of the insert instead");
    refuseUnplaceable(tableId, rowId);
    throw gone(tableId, rowId, "does not exist");
  }

  /**
   * The inline deletion key of {@code rowId} if it is a row of a live data file of the table, after
   * checking it can be deleted; empty if no live data file holds it. Stages nothing.
   *
   * @throws InvalidArgumentException if the file is registered by this commit
   * @throws NotFoundException if the row was already deleted inline
   */
  private Optional<InlineKey.Record> fileRowDelete(
      long tableId, long rowId, InlineTableState premise) {
    for (DataFileValue file : s.dataFileRecords(tableId)) {
      if (!file.hasRowIdStart()) {
        // A merged or flushed file that carries each row's id itself: its ids are in the file,
        // not a range the record gives (refuseUnplaceable answers for the ids found nowhere).
        continue;
      }
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
      return Optional.of(key);
    }
    return Optional.empty();
  }

  /**
   * Refuses a row id found nowhere while the table has live data files that carry their rows' ids
   * inside them (merged or flushed files without {@code row_id_start}): the row may be in one of
   * them, which only the file itself tells, so "does not exist" would not be known to be true.
   */
  private void refuseUnplaceable(long tableId, long rowId) {
    List<Long> selfNumbered =
        s.dataFileRecords(tableId).stream()
            .filter(f -> !f.hasRowIdStart())
            .map(DataFileValue::getDataFileId)
            .toList();
    if (!selfNumbered.isEmpty()) {
      throw new InvalidArgumentException(
          "row "
              + Long.toUnsignedString(rowId)
              + " of table "
              + Long.toUnsignedString(tableId)
              + " is in no chunk or file whose row ids the catalog records, and data files "
              + selfNumbered
              + " carry their rows' ids inside them (merged or flushed files): the row cannot be"
              + " found by its id; delete it with a delete file (registerDeleteFile)");
    }
  }

  /** The stored version of inlined row {@code rowId}, which {@code chunk} holds. */
  private InlinedRows.Row storedRow(long tableId, InlineTableState.Chunk chunk, long rowId) {
    return s.staged.premise().loadFor(v -> InlineRowsReader.row(v, tableId, chunk.op(), rowId));
  }

  /**
   * The entries the data-file row of the inline deletion {@code key} gives up, read from its file
   * through the catalog's {@code FileIndexValues}; checked, not yet taken.
   */
  private IndexUpkeep.Derived fileRowEntries(
      long tableId, List<IndexInfo> indexes, InlineKey.Record key, String verb) {
    InlineOp.FileDelete op = (InlineOp.FileDelete) key.op();
    DataFileValue file =
        s.dataFileRecords(tableId).stream()
            .filter(f -> f.getDataFileId() == op.dataFileId())
            .findFirst()
            .orElseThrow();
    return s.indexes.readFileRows(
        tableId, indexes, Records.dataFile(file), new long[] {op.rowId()}, false, verb);
  }

  /** Stages a tombstone ending an inlined row's live version at this commit's snapshot. */
  private void stageTombstone(InlineKey.RowTombstone tombstone) {
    s.inline.put(
        tombstone, InlineInlineDeleteValue.newBuilder().setEndSnapshot(s.newSnapshotId).build());
    run.deletedFrom.add(tombstone.tableId());
    s.record(
        DuckLakeOperation.INLINED_DELETE,
        new ChangeEntry.ById(ChangeKind.INLINED_DELETE, tombstone.tableId()));
  }

  /** Stages an inline deletion of a data-file row found by {@link #fileRowDelete}. */
  private void stageFileRowDelete(long tableId, InlineKey.Record key) {
    s.inline.put(key, InlineFileDeleteValue.newBuilder().setBeginSnapshot(s.newSnapshotId).build());
    s.inline.put(
        new InlineKey.FileDeleteTable(tableId), InlineFileDeleteTableValue.getDefaultInstance());
    run.deletedFrom.add(tableId);
    s.record(
        DuckLakeOperation.INLINED_FILE_DELETE,
        new ChangeEntry.ById(ChangeKind.INLINED_DELETE, tableId));
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

  // ---- shared ----------------------------------------------------------------------------------

  /**
   * Checks, once the closure has returned, that every table this run inlined into still has the
   * schema version its chunks were written under (a later verb of the closure may have changed the
   * table's shape).
   *
   * @throws InvalidArgumentException if one does not; the commit then writes nothing
   */
  // ---- the staged-row door's file rows --------------------------------------------------------

  /**
   * Deletes inline the row at {@code position} of live data file {@code dataFileId}, named by its
   * file and position as DuckLake names it (a merged or flushed file may carry its rows' ids
   * itself, so a row id does not tell the position).
   *
   * @throws NotFoundException if the table holds no such live file, or the row was deleted inline
   *     already
   * @throws InvalidArgumentException if the position lies outside the file, or this commit
   *     registers the file
   */
  void deleteFileRow(long tableId, long dataFileId, long position) {
    IndexGuard.maintainedIndexes(s, tableId, "deleteRowInline");
    s.requireTable(tableId);
    run.refuseAfterFlush(tableId, "delete rows inline from");
    DataFileValue file =
        s.dataFileRecords(tableId).stream()
            .filter(f -> f.getDataFileId() == dataFileId)
            .findFirst()
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "data file "
                            + Long.toUnsignedString(dataFileId)
                            + " is not a live file of table "
                            + Long.toUnsignedString(tableId)));
    if (position < 0 || position >= file.getRecordCount()) {
      throw new InvalidArgumentException(
          "position "
              + position
              + " lies outside data file "
              + Long.toUnsignedString(dataFileId)
              + " of "
              + file.getRecordCount()
              + " rows");
    }
    if (file.getBeginSnapshot() == s.newSnapshotId) {
      throw new InvalidArgumentException(
          "data file "
              + Long.toUnsignedString(dataFileId)
              + " is registered by this commit; leave the row out of it instead");
    }
    InlineKey.Record key =
        InlineKey.Record.live(new InlineOp.FileDelete(tableId, dataFileId, position));
    if (run.premiseState(tableId).fileDeletes.containsKey(List.of(dataFileId, position))
        || s.inline.touches(key)) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "the row at position "
              + position
              + " of data file "
              + Long.toUnsignedString(dataFileId)
              + " was already deleted");
    }
    stageFileRowDelete(tableId, key);
  }

  /**
   * Inlines {@code values} as the new version of row {@code rowId}, a data-file row this commit
   * deletes inline ({@link #deleteFileRow}): the second half of DuckLake's UPDATE of such a row.
   */
  void reinlineFileRow(long tableId, long rowId, List<Object> values) {
    if (values == null) {
      throw new InvalidArgumentException("an inline update needs the row's new values");
    }
    Chunk chunk = prepare(tableId, List.of(values));
    stageNewVersion(chunk, s.requireStats(tableId), rowId);
  }

  /** See {@link InlineSchemaVersions#registerEmpty}. */
  void registerEmptyTable(long tableId, long version) {
    schemas.registerEmpty(tableId, version);
  }

  /** The schema version this run inlined rows of {@code tableId} under, if it did. */
  Optional<Long> insertedVersion(long tableId) {
    return Optional.ofNullable(run.insertedVersions.get(tableId));
  }

  /** See {@link InlineSchemaVersions#registerReshapedTables}. */
  public void registerReshapedTables() {
    schemas.registerReshapedTables();
  }

  public void checkVersions() {
    for (Map.Entry<Long, Long> e : run.insertedVersions.entrySet()) {
      if (s.liveTable(e.getKey()).isPresent()
          && s.reshapedIds.contains(e.getKey())
          && s.premiseRecord.getSchemaVersion() + 1 != e.getValue()) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(e.getKey())
                + " changed shape after rows were inlined into it in the same commit; inline"
                + " after the change instead");
      }
    }
  }
}
