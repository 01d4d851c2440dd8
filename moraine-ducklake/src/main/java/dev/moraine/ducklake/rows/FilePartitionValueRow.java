package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_file_partition_value}: The value of one partition key for one data file.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param dataFileId column data_file_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param partitionKeyIndex column partition_key_index (BIGINT)
 * @param partitionValue column partition_value (VARCHAR)
 */
public record FilePartitionValueRow(
    Long dataFileId, Long tableId, Long partitionKeyIndex, String partitionValue)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_file_partition_value",
          List.of(
              new ColumnDef("data_file_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("partition_key_index", SqlType.BIGINT, false, false),
              new ColumnDef("partition_value", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(dataFileId, tableId, partitionKeyIndex, partitionValue);
  }
}
