package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_file_variant_stats}: Statistics of one shredded variant path in one data
 * file.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param dataFileId column data_file_id (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param variantPath column variant_path (VARCHAR)
 * @param shreddedType column shredded_type (VARCHAR)
 * @param columnSizeBytes column column_size_bytes (BIGINT)
 * @param valueCount column value_count (BIGINT)
 * @param nullCount column null_count (BIGINT)
 * @param minValue column min_value (VARCHAR)
 * @param maxValue column max_value (VARCHAR)
 * @param containsNan column contains_nan (BOOLEAN)
 * @param extraStats column extra_stats (VARCHAR)
 */
public record FileVariantStatsRow(
    Long dataFileId,
    Long tableId,
    Long columnId,
    String variantPath,
    String shreddedType,
    Long columnSizeBytes,
    Long valueCount,
    Long nullCount,
    String minValue,
    String maxValue,
    Boolean containsNan,
    String extraStats)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_file_variant_stats",
          List.of(
              new ColumnDef("data_file_id", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("variant_path", SqlType.VARCHAR, false, false),
              new ColumnDef("shredded_type", SqlType.VARCHAR, false, false),
              new ColumnDef("column_size_bytes", SqlType.BIGINT, false, false),
              new ColumnDef("value_count", SqlType.BIGINT, false, false),
              new ColumnDef("null_count", SqlType.BIGINT, false, false),
              new ColumnDef("min_value", SqlType.VARCHAR, false, false),
              new ColumnDef("max_value", SqlType.VARCHAR, false, false),
              new ColumnDef("contains_nan", SqlType.BOOLEAN, false, false),
              new ColumnDef("extra_stats", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(
        dataFileId,
        tableId,
        columnId,
        variantPath,
        shreddedType,
        columnSizeBytes,
        valueCount,
        nullCount,
        minValue,
        maxValue,
        containsNan,
        extraStats);
  }
}
