package dev.moraine.core.catalog.model;

/**
 * One row of a data file deleted inline (a row of DuckLake's {@code ducklake_inlined_delete_<t>}),
 * RFC 0002 §5.4 op {@code 04}.
 *
 * @param tableId the table
 * @param dataFileId the data file the row is in
 * @param rowId the deleted row's id
 * @param beginSnapshot the snapshot that deleted it
 */
public record InlinedFileDelete(long tableId, long dataFileId, long rowId, long beginSnapshot) {}
