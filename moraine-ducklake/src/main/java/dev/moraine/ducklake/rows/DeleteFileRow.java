package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_delete_file}: A delete file: positions deleted from one data file.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param deleteFileId column delete_file_id (BIGINT PRIMARY KEY)
 * @param tableId column table_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param dataFileId column data_file_id (BIGINT)
 * @param path column path (VARCHAR)
 * @param pathIsRelative column path_is_relative (BOOLEAN)
 * @param format column format (VARCHAR)
 * @param deleteCount column delete_count (BIGINT)
 * @param fileSizeBytes column file_size_bytes (BIGINT)
 * @param footerSize column footer_size (BIGINT)
 * @param encryptionKey column encryption_key (VARCHAR)
 * @param partialMax column partial_max (BIGINT)
 */
public record DeleteFileRow(
    Long deleteFileId,
    Long tableId,
    Long beginSnapshot,
    Long endSnapshot,
    Long dataFileId,
    String path,
    Boolean pathIsRelative,
    String format,
    Long deleteCount,
    Long fileSizeBytes,
    Long footerSize,
    String encryptionKey,
    Long partialMax)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_delete_file",
          List.of(
              new ColumnDef("delete_file_id", SqlType.BIGINT, false, true),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("data_file_id", SqlType.BIGINT, false, false),
              new ColumnDef("path", SqlType.VARCHAR, false, false),
              new ColumnDef("path_is_relative", SqlType.BOOLEAN, false, false),
              new ColumnDef("format", SqlType.VARCHAR, false, false),
              new ColumnDef("delete_count", SqlType.BIGINT, false, false),
              new ColumnDef("file_size_bytes", SqlType.BIGINT, false, false),
              new ColumnDef("footer_size", SqlType.BIGINT, false, false),
              new ColumnDef("encryption_key", SqlType.VARCHAR, false, false),
              new ColumnDef("partial_max", SqlType.BIGINT, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public DeleteFileRow {
    java.util.Objects.requireNonNull(deleteFileId, "delete_file_id");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(
        deleteFileId,
        tableId,
        beginSnapshot,
        endSnapshot,
        dataFileId,
        path,
        pathIsRelative,
        format,
        deleteCount,
        fileSizeBytes,
        footerSize,
        encryptionKey,
        partialMax);
  }
}
