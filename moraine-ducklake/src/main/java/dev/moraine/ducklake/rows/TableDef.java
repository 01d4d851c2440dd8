package dev.moraine.ducklake.rows;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A DuckLake metadata table: its name and its columns in DuckLake's order (DuckDB inserts into
 * these tables positionally, so the order is part of the format).
 *
 * @param name the table name, for example {@code ducklake_snapshot}
 * @param columns the columns in order
 */
public record TableDef(String name, List<ColumnDef> columns) {
  /** Copies the column list. */
  public TableDef {
    Objects.requireNonNull(name, "name");
    columns = List.copyOf(columns);
  }

  /** The column names in order. */
  public List<String> columnNames() {
    return columns.stream().map(ColumnDef::name).toList();
  }

  /** {@code SELECT c1, c2, ... FROM <prefix><name>}: reads the columns in order. */
  public String selectSql(String qualifier) {
    String prefix = qualifier == null || qualifier.isEmpty() ? "" : qualifier + '.';
    return "SELECT " + String.join(", ", columnNames()) + " FROM " + prefix + name;
  }

  /**
   * The CREATE TABLE statement DuckLake 1.0 uses for a fresh catalog (without a catalog qualifier).
   */
  public String createSql() {
    return "CREATE TABLE "
        + name
        + '('
        + columns.stream().map(ColumnDef::ddl).collect(Collectors.joining(", "))
        + ");";
  }
}
