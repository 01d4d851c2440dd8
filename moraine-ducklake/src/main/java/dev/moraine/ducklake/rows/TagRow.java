package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_tag}: A tag (such as a comment) on a table, view or schema.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param objectId column object_id (BIGINT)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param key column key (VARCHAR)
 * @param value column value (VARCHAR)
 */
public record TagRow(Long objectId, Long beginSnapshot, Long endSnapshot, String key, String value)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_tag",
          List.of(
              new ColumnDef("object_id", SqlType.BIGINT, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("key", SqlType.VARCHAR, false, false),
              new ColumnDef("value", SqlType.VARCHAR, false, false)));

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
    return Arrays.asList(objectId, beginSnapshot, endSnapshot, key, value);
  }
}
