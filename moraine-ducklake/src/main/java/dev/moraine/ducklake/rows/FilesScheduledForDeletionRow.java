package dev.moraine.ducklake.rows;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_files_scheduled_for_deletion}: A data or delete file waiting for
 * physical removal.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param dataFileId column data_file_id (BIGINT)
 * @param path column path (VARCHAR)
 * @param pathIsRelative column path_is_relative (BOOLEAN)
 * @param scheduleStart column schedule_start (TIMESTAMPTZ)
 */
public record FilesScheduledForDeletionRow(
    Long dataFileId, String path, Boolean pathIsRelative, Instant scheduleStart)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_files_scheduled_for_deletion",
          List.of(
              new ColumnDef("data_file_id", SqlType.BIGINT, false, false),
              new ColumnDef("path", SqlType.VARCHAR, false, false),
              new ColumnDef("path_is_relative", SqlType.BOOLEAN, false, false),
              new ColumnDef("schedule_start", SqlType.TIMESTAMPTZ, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(dataFileId, path, pathIsRelative, scheduleStart);
  }
}
