package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_data_file}: A data file of a table.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param dataFileId column data_file_id (BIGINT PRIMARY KEY)
 * @param tableId column table_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param fileOrder column file_order (BIGINT)
 * @param path column path (VARCHAR)
 * @param pathIsRelative column path_is_relative (BOOLEAN)
 * @param fileFormat column file_format (VARCHAR)
 * @param recordCount column record_count (BIGINT)
 * @param fileSizeBytes column file_size_bytes (BIGINT)
 * @param footerSize column footer_size (BIGINT)
 * @param rowIdStart column row_id_start (BIGINT)
 * @param partitionId column partition_id (BIGINT)
 * @param encryptionKey column encryption_key (VARCHAR)
 * @param mappingId column mapping_id (BIGINT)
 * @param partialMax column partial_max (BIGINT)
 */
public record DataFileRow(
    Long dataFileId,
    Long tableId,
    Long beginSnapshot,
    Long endSnapshot,
    Long fileOrder,
    String path,
    Boolean pathIsRelative,
    String fileFormat,
    Long recordCount,
    Long fileSizeBytes,
    Long footerSize,
    Long rowIdStart,
    Long partitionId,
    String encryptionKey,
    Long mappingId,
    Long partialMax)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_data_file",
          List.of(
              new ColumnDef("data_file_id", SqlType.BIGINT, false, true),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("file_order", SqlType.BIGINT, false, false),
              new ColumnDef("path", SqlType.VARCHAR, false, false),
              new ColumnDef("path_is_relative", SqlType.BOOLEAN, false, false),
              new ColumnDef("file_format", SqlType.VARCHAR, false, false),
              new ColumnDef("record_count", SqlType.BIGINT, false, false),
              new ColumnDef("file_size_bytes", SqlType.BIGINT, false, false),
              new ColumnDef("footer_size", SqlType.BIGINT, false, false),
              new ColumnDef("row_id_start", SqlType.BIGINT, false, false),
              new ColumnDef("partition_id", SqlType.BIGINT, false, false),
              new ColumnDef("encryption_key", SqlType.VARCHAR, false, false),
              new ColumnDef("mapping_id", SqlType.BIGINT, false, false),
              new ColumnDef("partial_max", SqlType.BIGINT, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public DataFileRow {
    java.util.Objects.requireNonNull(dataFileId, "data_file_id");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(
        dataFileId,
        tableId,
        beginSnapshot,
        endSnapshot,
        fileOrder,
        path,
        pathIsRelative,
        fileFormat,
        recordCount,
        fileSizeBytes,
        footerSize,
        rowIdStart,
        partitionId,
        encryptionKey,
        mappingId,
        partialMax);
  }
}
