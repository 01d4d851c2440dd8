package dev.moraine.core.rows;

import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of every spec-1.0 {@code ducklake_*} table as rendered for one snapshot: all 28
 * tables of {@link DuckLakeTables#ALL}, in that order, each present (possibly empty), plus the
 * inlined-data tables the catalog had registered.
 *
 * @param snapshotId the snapshot rendered
 * @param tables table name to rows, for every spec table, in {@link DuckLakeTables#ALL} order
 * @param inlinedTables the inlined-data tables, by name
 */
public record DuckLakeRowSet(
    long snapshotId, Map<String, List<DuckLakeRow>> tables, List<InlinedTable> inlinedTables) {

  /**
   * Copies both collections.
   *
   * @throws IllegalArgumentException if {@code tables} lacks a spec table or holds another name
   */
  public DuckLakeRowSet {
    Map<String, List<DuckLakeRow>> copy = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      List<DuckLakeRow> rows = tables.get(def.name());
      if (rows == null) {
        throw new IllegalArgumentException("no rows given for " + def.name());
      }
      copy.put(def.name(), List.copyOf(rows));
    }
    if (copy.size() != tables.size()) {
      throw new IllegalArgumentException("tables outside the spec: " + tables.keySet());
    }
    tables = Collections.unmodifiableMap(copy);
    inlinedTables = List.copyOf(inlinedTables);
  }

  /**
   * The rows of one spec table.
   *
   * @throws IllegalArgumentException if {@code table} is not one of the spec tables
   */
  public List<DuckLakeRow> rows(String table) {
    List<DuckLakeRow> rows = tables.get(table);
    if (rows == null) {
      throw new IllegalArgumentException("not a DuckLake 1.0 metadata table: " + table);
    }
    return rows;
  }

  /**
   * The rows of one spec table, typed by its row record.
   *
   * @throws IllegalArgumentException if {@code def} is not one of the spec tables
   * @throws ClassCastException if {@code type} is not the record of {@code def}
   */
  public <R extends DuckLakeRow> List<R> rows(TableDef def, Class<R> type) {
    return rows(def.name()).stream().map(type::cast).toList();
  }
}
