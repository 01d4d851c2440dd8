package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_macro_impl}: One implementation (overload) of a macro.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param macroId column macro_id (BIGINT)
 * @param implId column impl_id (BIGINT)
 * @param dialect column dialect (VARCHAR)
 * @param sql column sql (VARCHAR)
 * @param type column type (VARCHAR)
 */
public record MacroImplRow(Long macroId, Long implId, String dialect, String sql, String type)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_macro_impl",
          List.of(
              new ColumnDef("macro_id", SqlType.BIGINT, false, false),
              new ColumnDef("impl_id", SqlType.BIGINT, false, false),
              new ColumnDef("dialect", SqlType.VARCHAR, false, false),
              new ColumnDef("sql", SqlType.VARCHAR, false, false),
              new ColumnDef("type", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(macroId, implId, dialect, sql, type);
  }
}
