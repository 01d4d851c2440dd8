package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_macro}: One version of a macro.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param schemaId column schema_id (BIGINT)
 * @param macroId column macro_id (BIGINT)
 * @param macroName column macro_name (VARCHAR)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 */
public record MacroRow(
    Long schemaId, Long macroId, String macroName, Long beginSnapshot, Long endSnapshot)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_macro",
          List.of(
              new ColumnDef("schema_id", SqlType.BIGINT, false, false),
              new ColumnDef("macro_id", SqlType.BIGINT, false, false),
              new ColumnDef("macro_name", SqlType.VARCHAR, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false)));

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
    return Arrays.asList(schemaId, macroId, macroName, beginSnapshot, endSnapshot);
  }
}
