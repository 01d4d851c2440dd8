package dev.moraine.ducklake.rows;

import java.util.Objects;

/**
 * One column of a DuckLake metadata table as DuckLake declares it.
 *
 * @param name the column name
 * @param type the SQL type
 * @param notNull whether the column is declared NOT NULL
 * @param primaryKey whether the column is declared PRIMARY KEY
 */
public record ColumnDef(String name, SqlType type, boolean notNull, boolean primaryKey) {
  /**
   * @throws NullPointerException if name or type is null
   */
  public ColumnDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** The column as it appears in DuckLake's CREATE TABLE statement. */
  public String ddl() {
    return name + ' ' + type + (notNull ? " NOT NULL" : "") + (primaryKey ? " PRIMARY KEY" : "");
  }
}
