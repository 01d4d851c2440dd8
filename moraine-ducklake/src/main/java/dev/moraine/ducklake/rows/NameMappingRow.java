package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_name_mapping}: One field of a column mapping.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param mappingId column mapping_id (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param sourceName column source_name (VARCHAR)
 * @param targetFieldId column target_field_id (BIGINT)
 * @param parentColumn column parent_column (BIGINT)
 * @param isPartition column is_partition (BOOLEAN)
 */
public record NameMappingRow(
    Long mappingId,
    Long columnId,
    String sourceName,
    Long targetFieldId,
    Long parentColumn,
    Boolean isPartition)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_name_mapping",
          List.of(
              new ColumnDef("mapping_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("source_name", SqlType.VARCHAR, false, false),
              new ColumnDef("target_field_id", SqlType.BIGINT, false, false),
              new ColumnDef("parent_column", SqlType.BIGINT, false, false),
              new ColumnDef("is_partition", SqlType.BOOLEAN, false, false)));

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
    return Arrays.asList(mappingId, columnId, sourceName, targetFieldId, parentColumn, isPartition);
  }
}
