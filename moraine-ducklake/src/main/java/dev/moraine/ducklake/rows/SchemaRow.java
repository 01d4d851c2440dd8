package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A row of {@code ducklake_schema}: One version of a schema.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param schemaId column schema_id (BIGINT PRIMARY KEY)
 * @param schemaUuid column schema_uuid (UUID)
 * @param beginSnapshot column begin_snapshot (BIGINT)
 * @param endSnapshot column end_snapshot (BIGINT)
 * @param schemaName column schema_name (VARCHAR)
 * @param path column path (VARCHAR)
 * @param pathIsRelative column path_is_relative (BOOLEAN)
 */
public record SchemaRow(
    Long schemaId,
    UUID schemaUuid,
    Long beginSnapshot,
    Long endSnapshot,
    String schemaName,
    String path,
    Boolean pathIsRelative)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_schema",
          List.of(
              new ColumnDef("schema_id", SqlType.BIGINT, false, true),
              new ColumnDef("schema_uuid", SqlType.UUID, false, false),
              new ColumnDef("begin_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("end_snapshot", SqlType.BIGINT, false, false),
              new ColumnDef("schema_name", SqlType.VARCHAR, false, false),
              new ColumnDef("path", SqlType.VARCHAR, false, false),
              new ColumnDef("path_is_relative", SqlType.BOOLEAN, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public SchemaRow {
    java.util.Objects.requireNonNull(schemaId, "schema_id");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(
        schemaId, schemaUuid, beginSnapshot, endSnapshot, schemaName, path, pathIsRelative);
  }
}
