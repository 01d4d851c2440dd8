package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_partition_column}: One key of a partitioning.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param partitionId column partition_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param partitionKeyIndex column partition_key_index (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param transform column transform (VARCHAR)
 */
public record PartitionColumnRow(
    Long partitionId, Long tableId, Long partitionKeyIndex, Long columnId, String transform)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_partition_column",
          List.of(
              new ColumnDef("partition_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("partition_key_index", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("transform", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(partitionId, tableId, partitionKeyIndex, columnId, transform);
  }
}
