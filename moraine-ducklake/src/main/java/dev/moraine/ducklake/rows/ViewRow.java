package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code ducklake_view}: One version of a view.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param viewId column view_id (BIGINT)
 * @param viewUuid column view_uuid (UUID)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param schemaId column schema_id (BIGINT)
 * @param viewName column view_name (VARCHAR)
 * @param dialect column dialect (VARCHAR)
 * @param sql column sql (VARCHAR)
 * @param columnAliases column column_aliases (VARCHAR)
 */
public record ViewRow(
    Long viewId,
    UUID viewUuid,
    Long beginSnapshot,
    Long endSnapshot,
    Long schemaId,
    String viewName,
    String dialect,
    String sql,
    String columnAliases)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_view",
          List.of(
              new ColumnDef("view_id", SqlType.BIGINT, false, false),
              new ColumnDef("view_uuid", SqlType.UUID, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("schema_id", SqlType.BIGINT, false, false),
              new ColumnDef("view_name", SqlType.VARCHAR, false, false),
              new ColumnDef("dialect", SqlType.VARCHAR, false, false),
              new ColumnDef("sql", SqlType.VARCHAR, false, false),
              new ColumnDef("column_aliases", SqlType.VARCHAR, false, false)));

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
        viewId,
        viewUuid,
        beginSnapshot,
        endSnapshot,
        schemaId,
        viewName,
        dialect,
        sql,
        columnAliases);
  }
}
