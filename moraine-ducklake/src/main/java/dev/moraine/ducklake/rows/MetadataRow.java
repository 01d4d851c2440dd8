package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_metadata}: A key/value setting: catalog-wide when scope is null, else
 * scoped to a schema or table.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param key column key (VARCHAR NOT NULL)
 * @param value column value (VARCHAR NOT NULL)
 * @param scope column scope (VARCHAR)
 * @param scopeId column scope_id (BIGINT)
 */
public record MetadataRow(String key, String value, String scope, Long scopeId)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_metadata",
          List.of(
              new ColumnDef("key", SqlType.VARCHAR, true, false),
              new ColumnDef("value", SqlType.VARCHAR, true, false),
              new ColumnDef("scope", SqlType.VARCHAR, false, false),
              new ColumnDef("scope_id", SqlType.BIGINT, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public MetadataRow {
    java.util.Objects.requireNonNull(key, "key");
    java.util.Objects.requireNonNull(value, "value");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(key, value, scope, scopeId);
  }
}
