package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_macro_parameters}: One parameter of a macro implementation.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param macroId column macro_id (BIGINT)
 * @param implId column impl_id (BIGINT)
 * @param columnId column column_id (BIGINT)
 * @param parameterName column parameter_name (VARCHAR)
 * @param parameterType column parameter_type (VARCHAR)
 * @param defaultValue column default_value (VARCHAR)
 * @param defaultValueType column default_value_type (VARCHAR)
 */
public record MacroParametersRow(
    Long macroId,
    Long implId,
    Long columnId,
    String parameterName,
    String parameterType,
    String defaultValue,
    String defaultValueType)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_macro_parameters",
          List.of(
              new ColumnDef("macro_id", SqlType.BIGINT, false, false),
              new ColumnDef("impl_id", SqlType.BIGINT, false, false),
              new ColumnDef("column_id", SqlType.BIGINT, false, false),
              new ColumnDef("parameter_name", SqlType.VARCHAR, false, false),
              new ColumnDef("parameter_type", SqlType.VARCHAR, false, false),
              new ColumnDef("default_value", SqlType.VARCHAR, false, false),
              new ColumnDef("default_value_type", SqlType.VARCHAR, false, false)));

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
        macroId, implId, columnId, parameterName, parameterType, defaultValue, defaultValueType);
  }
}
