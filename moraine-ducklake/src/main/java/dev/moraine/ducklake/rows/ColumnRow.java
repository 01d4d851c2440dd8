package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_column}: One version of a column (nested fields have a parent column).
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param columnId column column_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param tableId column table_id (BIGINT)
 * @param columnOrder column column_order (BIGINT)
 * @param columnName column column_name (VARCHAR)
 * @param columnType column column_type (VARCHAR)
 * @param initialDefault column initial_default (VARCHAR)
 * @param defaultValue column default_value (VARCHAR)
 * @param nullsAllowed column nulls_allowed (BOOLEAN)
 * @param parentColumn column parent_column (BIGINT)
 * @param defaultValueType column default_value_type (VARCHAR)
 * @param defaultValueDialect column default_value_dialect (VARCHAR)
 */
public record ColumnRow(
    Long columnId,
    Long beginSnapshot,
    Long endSnapshot,
    Long tableId,
    Long columnOrder,
    String columnName,
    String columnType,
    String initialDefault,
    String defaultValue,
    Boolean nullsAllowed,
    Long parentColumn,
    String defaultValueType,
    String defaultValueDialect)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_column",
          List.of(
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("table_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_order", SqlType.BIGINT, false, false),
              new ColumnDef("column_name", SqlType.VARCHAR, false, false),
              new ColumnDef("column_type", SqlType.VARCHAR, false, false),
              new ColumnDef("initial_default", SqlType.VARCHAR, false, false),
              new ColumnDef("default_value", SqlType.VARCHAR, false, false),
              new ColumnDef("nulls_allowed", SqlType.BOOLEAN, false, false),
              new ColumnDef("parent_column", SqlType.BIGINT, false, false),
              new ColumnDef("default_value_type", SqlType.VARCHAR, false, false),
              new ColumnDef("default_value_dialect", SqlType.VARCHAR, false, false)));

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
        columnId,
        beginSnapshot,
        endSnapshot,
        tableId,
        columnOrder,
        columnName,
        columnType,
        initialDefault,
        defaultValue,
        nullsAllowed,
        parentColumn,
        defaultValueType,
        defaultValueDialect);
  }
}
