package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;
import static dev.moraine.core.verb.StagedRowChecks.tableOf;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The staged-row door's data and delete file rows (RFC 0006 §4.3, §13): new files with their
 * partition values, ends of files, and the replacement of a delete file, each checked against the
 * base and the commit's range of {@code next_file_id} before it is staged, for {@link
 * StagedTranslation}. Confined to the thread running the translation.
 */
final class StagedFileRows {
  private final SnapshotView premise;
  private final SnapshotValue premiseRecord;
  private final StagedEntities staged;
  private final StagedFileRemovals removals;
  private final StagedBase base;
  private final StagedMerges merges;
  private final StagedInlineFlush flush;

  /** The snapshot the commit mints. */
  private final long n;

  StagedFileRows(
      SnapshotView premise,
      SnapshotValue premiseRecord,
      StagedEntities staged,
      StagedFileRemovals removals,
      StagedBase base,
      StagedMerges merges,
      StagedInlineFlush flush,
      long n) {
    this.premise = premise;
    this.premiseRecord = premiseRecord;
    this.staged = staged;
    this.removals = removals;
    this.base = base;
    this.merges = merges;
    this.flush = flush;
    this.n = n;
  }

  void insertFile(
      DataFileRow r, SnapshotValue record, Set<Long> fileIds, List<FilePartitionValueRow> values) {
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.dataFileId(), r, "data_file_id");
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    checkNewFile(r, id, record, fileIds);
    long begin = required(r.beginSnapshot(), r, "begin_snapshot");
    // A merged file is backdated to its inputs' first snapshot, a flushed one to the snapshot its
    // rows were inlined at; any other begins here.
    boolean merged = begin != n && merges.isOutput(r);
    boolean flushed = begin != n && !merged && flush.isOutput(r);
    if (begin != n && !merged && !flushed) {
      throw new InvalidArgumentException(
          "data file " + Long.toUnsignedString(id) + " begins at " + begin + ", not at " + n);
    }
    TableInfo table = base.liveTable(tableId, r);
    base.refuseIndexed(table, "a data file");
    if (flushed) {
      flush.output(r);
    }
    DataFileValue.Builder value =
        DataFileValue.newBuilder()
            .setDataFileId(id)
            .setTableId(tableId)
            .setBeginSnapshot(begin)
            .setPath(required(r.path(), r, "path"))
            .setPathIsRelative(required(r.pathIsRelative(), r, "path_is_relative"))
            .setFileFormat(required(r.fileFormat(), r, "file_format"))
            .setRecordCount(required(r.recordCount(), r, "record_count"))
            .setFileSizeBytes(required(r.fileSizeBytes(), r, "file_size_bytes"))
            .setFooterSize(required(r.footerSize(), r, "footer_size"));
    if (r.fileOrder() != null) {
      value.setFileOrder(r.fileOrder());
    }
    if (r.rowIdStart() != null) {
      value.setRowIdStart(r.rowIdStart());
    }
    if (r.encryptionKey() != null) {
      value.setEncryptionKey(r.encryptionKey());
    }
    if (r.partialMax() != null) {
      value.setPartialMax(r.partialMax());
    }
    if (r.mappingId() != null) {
      // A file registered by its columns' names: its mapping is this commit's (staged before the
      // files) or one the lake holds, of the same table.
      if (staged
          .get(
              new EntityKey.Mapping(tableId, r.mappingId()),
              dev.moraine.core.keyspace.proto.MappingValue.class)
          .isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "data file "
                + Long.toUnsignedString(id)
                + " names column mapping "
                + r.mappingId()
                + ", which table "
                + Long.toUnsignedString(tableId)
                + " does not have");
      }
      value.setMappingId(r.mappingId());
    }
    List<FilePartitionValueRow> given = values == null ? List.of() : values;
    if (merged) {
      DataFileValue in = merges.output(r, given);
      value.addAllPartitionValues(in.getPartitionValuesList());
      if (in.hasPartitionId()) {
        value.setPartitionId(in.getPartitionId());
      }
    } else if (r.partitionId() == null) {
      if (!given.isEmpty()) {
        throw new InvalidArgumentException(
            "data file " + Long.toUnsignedString(id) + " has partition values but no partition_id");
      }
    } else {
      PartitionSpec spec =
          premise
              .partitioning(tableId)
              .filter(p -> p.partitionId() == r.partitionId())
              .orElseThrow(
                  () ->
                      new NotFoundException(
                          ErrorCode.NOT_FOUND,
                          "data file "
                              + Long.toUnsignedString(id)
                              + " names partition "
                              + r.partitionId()
                              + ", which is not table "
                              + Long.toUnsignedString(tableId)
                              + "'s live partitioning"));
      List<FilePartitionValueRow> sorted = new ArrayList<>(given);
      sorted.sort(Comparator.comparing(FilePartitionValueRow::partitionKeyIndex));
      if (sorted.size() != spec.columns().size()) {
        throw new InvalidArgumentException(
            "data file "
                + Long.toUnsignedString(id)
                + " has "
                + sorted.size()
                + " partition values for "
                + spec.columns().size()
                + " keys");
      }
      for (int k = 0; k < sorted.size(); k++) {
        FilePartitionValueRow v = sorted.get(k);
        if (required(v.partitionKeyIndex(), v, "partition_key_index") != k) {
          throw new InvalidArgumentException(
              "data file " + Long.toUnsignedString(id) + " has no partition value for key " + k);
        }
        value.addPartitionValues(
            FilePartitionValue.newBuilder()
                .setPartitionKeyIndex(k)
                .setPartitionValue(
                    required(
                        v.partitionValue(),
                        v,
                        "partition_value (a NULL one cannot be recorded in this lake format)")));
      }
      value.setPartitionId(r.partitionId());
    }
    staged.put(new EntityKey.DataFile(tableId, id), value.build());
  }

  void insertDeleteFile(
      DeleteFileRow r, SnapshotValue record, Set<Long> fileIds, Set<List<Long>> targets) {
    long tableId = required(r.tableId(), r, "table_id");
    long id = required(r.deleteFileId(), r, "delete_file_id");
    requireAbsent(r.endSnapshot(), r, "end_snapshot");
    checkNewFile(r, id, record, fileIds);
    long begin = required(r.beginSnapshot(), r, "begin_snapshot");
    TableInfo table = base.liveTable(tableId, r);
    base.refuseIndexed(table, "a delete file");
    long target = required(r.dataFileId(), r, "data_file_id");
    // A replacement of a delete file this commit removed is backdated to the removed one's begin
    // and marks this snapshot as the last whose deletions it holds; any other begins here.
    Optional<DeleteFileValue> replacing = removals.replaced(tableId, target);
    replacing.ifPresent(old -> removals.replacedBy(tableId, target));
    replacing.ifPresent(
        old ->
            flush.replacement(
                tableId,
                target,
                required(r.deleteCount(), r, "delete_count"),
                old.getDeleteCount()));
    // A flush's delete file is backdated to the deletions it holds (StagedInlineFlush).
    boolean flushed =
        replacing.isEmpty()
            && begin != n
            && flush.takesDeleteFile(
                tableId,
                target,
                fileIds.contains(target),
                begin,
                required(r.deleteCount(), r, "delete_count"));
    // A replacement that also takes a flush's inline deletions of the file begins at the earlier
    // of the replaced file's begin and the first of those deletions.
    long expectedBegin =
        replacing
            .map(
                old ->
                    flush
                        .firstInlineDeletion(tableId, target)
                        .filter(first -> Long.compareUnsigned(first, old.getBeginSnapshot()) < 0)
                        .orElse(old.getBeginSnapshot()))
            .orElse(flushed ? begin : n);
    // Its partial_max is the snapshot DuckLake stamped the new deletions with inside the file:
    // this one, or the one it was authored for when the rows were rebased (StagedRebase).
    if (begin != expectedBegin
        || (replacing.isPresent()
            && (r.partialMax() == null
                || Long.compareUnsigned(r.partialMax(), begin) <= 0
                || Long.compareUnsigned(r.partialMax(), n) > 0))) {
      throw new InvalidArgumentException(
          "delete file "
              + Long.toUnsignedString(id)
              + " begins at "
              + begin
              + (replacing.isPresent()
                  ? " with partial_max "
                      + r.partialMax()
                      + ", not at "
                      + expectedBegin
                      + " with a partial_max above it and at most "
                      + n
                      + " as the replacement of the delete file it deletes"
                  : ", not at " + n));
    }
    if (!targets.add(List.of(tableId, target))
        || staged
            .list(
                dev.moraine.core.keyspace.key.EntityKind.DELETE_FILE,
                tableId,
                DeleteFileValue.class,
                d -> new EntityKey.DeleteFile(tableId, d.getDeleteFileId()))
            .stream()
            .anyMatch(d -> d.getDataFileId() == target)) {
      throw new InvalidArgumentException(
          "delete file "
              + Long.toUnsignedString(id)
              + " targets data file "
              + Long.toUnsignedString(target)
              + ", which has a live delete file already: DuckLake deletes that one in the same"
              + " commit when it replaces it");
    }
    if (staged.get(new EntityKey.DataFile(tableId, target), DataFileValue.class).isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "delete file "
              + Long.toUnsignedString(id)
              + " targets data file "
              + Long.toUnsignedString(target)
              + ", which table "
              + Long.toUnsignedString(tableId)
              + " does not hold live");
    }
    DeleteFileValue.Builder value =
        DeleteFileValue.newBuilder()
            .setDeleteFileId(id)
            .setTableId(tableId)
            .setBeginSnapshot(begin)
            .setDataFileId(target)
            .setPath(required(r.path(), r, "path"))
            .setPathIsRelative(required(r.pathIsRelative(), r, "path_is_relative"))
            .setFormat(required(r.format(), r, "format"))
            .setDeleteCount(required(r.deleteCount(), r, "delete_count"))
            .setFileSizeBytes(required(r.fileSizeBytes(), r, "file_size_bytes"))
            .setFooterSize(required(r.footerSize(), r, "footer_size"));
    if (r.encryptionKey() != null) {
      value.setEncryptionKey(r.encryptionKey());
    }
    if (r.partialMax() != null) {
      value.setPartialMax(r.partialMax());
    }
    staged.put(new EntityKey.DeleteFile(tableId, id), value.build());
  }

  /**
   * An end of a live data or delete file, as DuckLake writes it when a DELETE removes every row of
   * a data file (the file is ended, not given a delete file; its delete file, if any, stays) or
   * when it drops a table: the given row must be the stored one, the end this commit's snapshot. An
   * ended data file counts as a file this commit deleted from, for conflicts.
   */
  void endFile(StagedRows.End e, Set<List<Long>> endedKeys, Set<Long> targets) {
    DuckLakeRow row = e.row();
    if (e.endSnapshot() != n) {
      throw new InvalidArgumentException(
          StagedRowChecks.describe(e) + " ends it at " + e.endSnapshot() + ", not at " + n);
    }
    long tableId;
    long id;
    EntityKey key;
    Optional<? extends com.google.protobuf.Message> stored;
    boolean same;
    if (row instanceof DataFileRow r) {
      tableId = required(r.tableId(), r, "table_id");
      id = required(r.dataFileId(), r, "data_file_id");
      key = new EntityKey.DataFile(tableId, id);
      Optional<DataFileValue> v = staged.get(key, DataFileValue.class);
      stored = v;
      same =
          v.isPresent()
              && Long.valueOf(v.get().getBeginSnapshot()).equals(r.beginSnapshot())
              && v.get().getPath().equals(r.path())
              && Long.valueOf(v.get().getRecordCount()).equals(r.recordCount());
      targets.add(id);
    } else {
      DeleteFileRow r = (DeleteFileRow) row;
      tableId = required(r.tableId(), r, "table_id");
      id = required(r.deleteFileId(), r, "delete_file_id");
      key = new EntityKey.DeleteFile(tableId, id);
      Optional<DeleteFileValue> v = staged.get(key, DeleteFileValue.class);
      stored = v;
      same =
          v.isPresent()
              && Long.valueOf(v.get().getBeginSnapshot()).equals(r.beginSnapshot())
              && v.get().getPath().equals(r.path())
              && Long.valueOf(v.get().getDataFileId()).equals(r.dataFileId());
    }
    requireAbsent(
        row instanceof DataFileRow d ? d.endSnapshot() : ((DeleteFileRow) row).endSnapshot(),
        row,
        "end_snapshot");
    TableInfo table = base.liveTable(tableId, row);
    base.refuseIndexed(table, "an end of a file");
    if (stored.isEmpty()) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          StagedRowChecks.describe(e)
              + " names file "
              + Long.toUnsignedString(id)
              + ", which table "
              + Long.toUnsignedString(tableId)
              + " does not hold live");
    }
    if (!same || !endedKeys.add(List.of(row instanceof DataFileRow ? 1L : 2L, tableId, id))) {
      throw new InvalidArgumentException(
          StagedRowChecks.describe(e)
              + " for file "
              + Long.toUnsignedString(id)
              + " is not the row the lake holds, or is given twice");
    }
    staged.delete(key);
  }

  /** A new file id: drawn from this commit's range of {@code next_file_id}, once. */
  void checkNewFile(DuckLakeRow r, long id, SnapshotValue record, Set<Long> fileIds) {
    if (Long.compareUnsigned(id, premiseRecord.getNextFileId()) < 0
        || Long.compareUnsigned(id, record.getNextFileId()) >= 0) {
      throw new InvalidArgumentException(
          tableOf(r)
              + " row with id "
              + Long.toUnsignedString(id)
              + ": this commit's file ids are "
              + Long.toUnsignedString(premiseRecord.getNextFileId())
              + " up to "
              + Long.toUnsignedString(record.getNextFileId())
              + ", not included");
    }
    if (!fileIds.add(id)) {
      throw new InvalidArgumentException(
          "file id " + Long.toUnsignedString(id) + " is inserted twice by this commit");
    }
  }
}
