package dev.moraine.core.catalog.model;

import java.util.OptionalLong;

/**
 * What a flush of inlined data registered.
 *
 * @param dataFileId the data file now holding the flushed rows
 * @param deleteFileId the delete file of the rows deleted while inlined; empty when none were
 * @param rowIdStart the row id of the file's first row (the rows keep the ids they were inlined
 *     under)
 * @param rowCount the rows the file holds, deleted ones included
 * @param deletedRowIds the ids of the rows the delete file names, ascending
 */
public record FlushedInline(
    long dataFileId,
    OptionalLong deleteFileId,
    long rowIdStart,
    long rowCount,
    java.util.List<Long> deletedRowIds) {
  public FlushedInline {
    deletedRowIds = java.util.List.copyOf(deletedRowIds);
  }
}
