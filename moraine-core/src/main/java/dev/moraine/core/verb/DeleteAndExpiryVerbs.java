package dev.moraine.core.verb;

import dev.moraine.core.catalog.FileIndexValues;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.view.Names;
import dev.moraine.core.view.Records;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;
import java.util.OptionalLong;

/**
 * Registering delete files, and expiring data and delete files; {@link Transaction} documents each
 * verb's contract.
 */
public final class DeleteAndExpiryVerbs {
  private final VerbState s;

  public DeleteAndExpiryVerbs(VerbState state) {
    this.s = state;
  }

  public long registerDeleteFile(long tableId, NewDeleteFile file) {
    List<IndexInfo> indexes = IndexGuard.maintainedIndexes(s, tableId, "registerDeleteFile");
    IndexUpkeep.Derived entries = null;
    if (!indexes.isEmpty() && file != null && file.deleteCount() > 0) {
      entries = deletedRowEntries(tableId, indexes, file);
    }
    long id = stageDeleteFile(tableId, file, s.newSnapshotId);
    if (entries != null) {
      s.indexes.take(entries);
    }
    s.deletedDataFileIds.add(file.dataFileId());
    s.record(
        DuckLakeOperation.DELETE_FILE,
        new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, tableId));
    return id;
  }

  /**
   * The entries the rows a new delete file deletes give up: its positions and their rows' values,
   * read through the catalog's {@code FileIndexValues}; checked, not yet taken. Checks the file as
   * {@link #stageDeleteFile} does first, so bad input is refused before any file is read.
   */
  private IndexUpkeep.Derived deletedRowEntries(
      long tableId, List<IndexInfo> indexes, NewDeleteFile file) {
    FileIndexValues reader =
        s.fileIndexValues.orElseThrow(
            () -> IndexGuard.refusal(s, tableId, "registerDeleteFile", indexes));
    s.requireTable(tableId);
    DataFileValue target = liveDataFile(tableId, file.dataFileId());
    checkFields(file);
    DeleteFileInfo planned =
        new DeleteFileInfo(
            tableId,
            0,
            s.newSnapshotId,
            file.dataFileId(),
            file.path(),
            file.pathIsRelative(),
            file.format(),
            file.deleteCount(),
            file.fileSizeBytes(),
            file.footerSize(),
            file.encryptionKey(),
            OptionalLong.empty());
    long[] positions = reader.deletedPositions(s.premiseSnapshot, planned);
    boolean valid = positions.length == file.deleteCount();
    for (int i = 0; valid && i < positions.length; i++) {
      valid =
          positions[i] >= 0
              && positions[i] < target.getRecordCount()
              && (i == 0 || positions[i] > positions[i - 1]);
    }
    if (!valid) {
      throw new InvalidArgumentException(
          "delete file "
              + file.path()
              + " does not hold "
              + file.deleteCount()
              + " distinct positions of its data file's "
              + target.getRecordCount()
              + " rows");
    }
    return s.indexes.readFileRows(
        tableId, indexes, Records.dataFile(target), positions, false, "registerDeleteFile");
  }

  /**
   * Validates and stages one delete file beginning at {@code beginSnapshot}; records no operation
   * and names no deleted data file (a flush of inlined rows backdates the delete file of the rows
   * deleted while inlined, and reports its own operation).
   */
  long stageDeleteFile(long tableId, NewDeleteFile file, long beginSnapshot) {
    if (file == null) {
      throw new InvalidArgumentException("delete file must not be null");
    }
    s.requireTable(tableId);
    DataFileValue target = liveDataFile(tableId, file.dataFileId());
    checkFields(file);
    if (Long.compareUnsigned(file.deleteCount(), target.getRecordCount()) > 0) {
      throw new InvalidArgumentException(
          "a delete file of "
              + file.deleteCount()
              + " rows for a data file of "
              + target.getRecordCount());
    }
    if (s.deleteFileRecords(tableId).stream()
        .anyMatch(d -> d.getDataFileId() == file.dataFileId())) {
      throw new InvalidArgumentException(
          "data file "
              + Long.toUnsignedString(file.dataFileId())
              + " already has a live delete file; expire it first");
    }
    return stageRecord(tableId, file, beginSnapshot);
  }

  /**
   * Stages the delete file of a flush for the inline deletions of a data file that has ended since
   * they were recorded (RFC 0004 §3): stock DuckLake 1.5.5 registers it as it would for a live
   * file, and it applies only at the snapshots where its target was live. The caller has checked
   * that the target has no live delete file (ending a data file ends its delete files) and that the
   * count is that of the deletions, each of a row the file held.
   */
  long stageDeleteFileOfEndedDataFile(long tableId, NewDeleteFile file, long beginSnapshot) {
    checkFields(file);
    return stageRecord(tableId, file, beginSnapshot);
  }

  private static void checkFields(NewDeleteFile file) {
    Names.nonEmpty("delete file path", file.path());
    Names.nonEmpty("delete file format", file.format());
    VerbState.nonNegative("delete count", file.deleteCount());
    VerbState.nonNegative("file size", file.fileSizeBytes());
    VerbState.nonNegative("footer size", file.footerSize());
  }

  private long stageRecord(long tableId, NewDeleteFile file, long beginSnapshot) {
    long id = s.nextFileId++;
    DeleteFileValue.Builder value =
        DeleteFileValue.newBuilder()
            .setDeleteFileId(id)
            .setTableId(tableId)
            .setBeginSnapshot(beginSnapshot)
            .setDataFileId(file.dataFileId())
            .setPath(file.path())
            .setPathIsRelative(file.pathIsRelative())
            .setFormat(file.format())
            .setDeleteCount(file.deleteCount())
            .setFileSizeBytes(file.fileSizeBytes())
            .setFooterSize(file.footerSize());
    file.encryptionKey().ifPresent(value::setEncryptionKey);
    s.staged.put(new EntityKey.DeleteFile(tableId, id), value.build());
    return id;
  }

  public void expireDataFile(long tableId, long dataFileId) {
    IndexGuard.refuseRowChange(s, tableId, "expireDataFile");
    s.requireTable(tableId);
    DataFileValue file = liveDataFile(tableId, dataFileId);
    for (DeleteFileValue d : s.deleteFileRecords(tableId)) {
      if (d.getDataFileId() == dataFileId) {
        s.staged.delete(new EntityKey.DeleteFile(tableId, d.getDeleteFileId()));
      }
    }
    s.staged.delete(new EntityKey.DataFile(tableId, dataFileId));
    TableStatsValue stats = s.requireStats(tableId);
    s.staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder()
            .setRecordCount(saturatingSub(stats.getRecordCount(), file.getRecordCount()))
            .setFileSizeBytes(saturatingSub(stats.getFileSizeBytes(), file.getFileSizeBytes()))
            .build());
    s.record(
        DuckLakeOperation.MERGE_ADJACENT_FILES,
        new ChangeEntry.ById(ChangeKind.MERGE_ADJACENT, tableId));
  }

  public void expireDeleteFile(long tableId, long deleteFileId) {
    IndexGuard.refuseRowChange(s, tableId, "expireDeleteFile");
    s.requireTable(tableId);
    if (s.staged
        .get(new EntityKey.DeleteFile(tableId, deleteFileId), DeleteFileValue.class)
        .isEmpty()) {
      throw VerbState.notFound(
          "delete file "
              + Long.toUnsignedString(deleteFileId)
              + " of table "
              + Long.toUnsignedString(tableId));
    }
    s.staged.delete(new EntityKey.DeleteFile(tableId, deleteFileId));
    s.record(
        DuckLakeOperation.REWRITE_DELETES,
        new ChangeEntry.ById(ChangeKind.REWRITE_DELETE, tableId));
  }

  private DataFileValue liveDataFile(long tableId, long dataFileId) {
    return s.staged
        .get(new EntityKey.DataFile(tableId, dataFileId), DataFileValue.class)
        .orElseThrow(
            () ->
                VerbState.notFound(
                    "data file "
                        + Long.toUnsignedString(dataFileId)
                        + " of table "
                        + Long.toUnsignedString(tableId)));
  }

  private static long saturatingSub(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? 0 : a - b;
  }
}
