package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a flush of inlined data registered.
 *
 * @param dataFileId the data file now holding the flushed rows; empty when no rows were inlined
 * @param rowDeleteFileId the delete file of the rows deleted while inlined; empty when none were
 * @param rowIdStart the row id of the data file's first row (the rows keep the ids they were
 *     inlined under); 0 without a data file
 * @param rowCount the rows the data file holds, deleted ones included
 * @param deletedRowIds the ids of the rows the row delete file names, ascending
 * @param fileDeleteFileIds for each data file whose inline deletions were flushed, the id of its
 *     new delete file
 */
public record FlushedInline(
    OptionalLong dataFileId,
    OptionalLong rowDeleteFileId,
    long rowIdStart,
    long rowCount,
    List<Long> deletedRowIds,
    Map<Long, Long> fileDeleteFileIds) {
  public FlushedInline {
    deletedRowIds = List.copyOf(deletedRowIds);
    fileDeleteFileIds = Map.copyOf(fileDeleteFileIds);
  }
}
