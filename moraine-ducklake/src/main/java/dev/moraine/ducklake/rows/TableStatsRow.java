package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_table_stats}: Running totals of a table, including the next row id to
 * hand out.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param tableId column table_id (BIGINT)
 * @param recordCount column record_count (BIGINT)
 * @param nextRowId column next_row_id (BIGINT)
 * @param fileSizeBytes column file_size_bytes (BIGINT)
 */
public record TableStatsRow(Long tableId, Long recordCount, Long nextRowId, Long fileSizeBytes)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_table_stats",
          List.of(
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("record_count", SqlType.BIGINT, false, false),
              new ColumnDef("next_row_id", SqlType.BIGINT, false, false),
              new ColumnDef("file_size_bytes", SqlType.BIGINT, false, false)));

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
    return Arrays.asList(tableId, recordCount, nextRowId, fileSizeBytes);
  }
}
