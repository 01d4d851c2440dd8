package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A workload of every verb kind, one commit per step, each step with its SQL on stock DuckLake
 * 1.5.5 where DuckDB has one. Steps run in order on one pair of lakes (ours, and stock DuckLake
 * with inlining off), the SQL first: a step's objects are those earlier steps made, and a data or
 * delete file registered on our side is the very file stock DuckLake just wrote, as its row
 * describes it.
 *
 * <p>Each step also carries what it does to {@code schema_version}: whether it mints a snapshot,
 * bumps the version, and writes a {@code ducklake_schema_versions} row (the schema-version matrix).
 * A view's create, alter and rename bump the version but, on both sides, add no such row: that
 * table keys its rows by table id.
 *
 * <p>An instance holds the ids our side was given, so one instance serves one run.
 */
final class VerbKindWorkload {
  /** How a step relates to stock DuckLake. */
  enum Kind {
    /** Its SQL leaves the same rows on stock DuckLake as our verb leaves on our side. */
    STOCK,
    /**
     * Its SQL bumps as our verb does, but leaves different rows (ids included), so the rows of the
     * two lakes differ from this step on; RFC 0004 §8 lists why.
     */
    STOCK_ROWS_DIFFER,
    /** DuckDB 1.5.5 has no SQL for it; it is checked on our side only. */
    OURS_ONLY
  }

  /** Builds our side's closure once the stock side ran (a step may read what the SQL wrote). */
  interface Prepared {
    Consumer<Transaction> prepare(ReferenceDuckLake stock) throws Exception;
  }

  /** One step: a verb kind, its SQL (null for none), our commit, and its schema-version answers. */
  record Step(
      String verb,
      List<String> sql,
      Prepared ours,
      Kind kind,
      boolean mints,
      boolean bumps,
      boolean recordsVersion) {
    @Override
    public String toString() {
      return verb
          + (kind == Kind.OURS_ONLY ? " (no stock counterpart)" : "")
          + ": "
          + (mints ? "" : "no snapshot, ")
          + (bumps ? "bumps" : "does not bump")
          + (recordsVersion ? ", schema_versions row" : "");
    }
  }

  private static Step step(
      String verb, String sql, Consumer<Transaction> ours, boolean bumps, boolean records) {
    return new Step(
        verb,
        sql == null ? null : List.of(sql),
        stock -> ours,
        sql == null ? Kind.OURS_ONLY : Kind.STOCK,
        true,
        bumps,
        records);
  }

  private static Step rowsDiffer(
      String verb, String sql, Consumer<Transaction> ours, boolean bumps, boolean records) {
    return new Step(
        verb, List.of(sql), stock -> ours, Kind.STOCK_ROWS_DIFFER, true, bumps, records);
  }

  private static final SortKey A_ASC = new SortKey("a", "duckdb", "ASC", "NULLS_LAST");

  // Ids on our side, from the steps that create them (ids are equal on both sides, but our verbs
  // take them while the SQL takes names).
  private long schema;
  private long otherSchema;
  private long table;
  private long view;
  private long macro;
  private long tableMacro;
  private long dataFile;
  private long deleteFile;

  /** Every step, in order. */
  List<Step> steps() {
    return List.of(
        step("createSchema", "CREATE SCHEMA s1", tx -> schema = tx.createSchema("s1"), true, false),
        step(
            "createSchema (second)",
            "CREATE SCHEMA s2",
            tx -> otherSchema = tx.createSchema("s2"),
            true,
            false),
        step(
            "createTable",
            "CREATE TABLE s1.t (a INTEGER, b VARCHAR)",
            tx ->
                table =
                    tx.createTable(
                        schema,
                        "t",
                        List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))),
            true,
            true),
        new Step(
            "registerDataFile",
            List.of("INSERT INTO s1.t VALUES (1, 'x'), (2, 'y')"),
            stock -> {
              NewDataFile file = stockDataFile(stock);
              return tx -> dataFile = tx.registerDataFile(table, file);
            },
            Kind.STOCK,
            true,
            false,
            false),
        new Step(
            "registerDeleteFile",
            List.of("DELETE FROM s1.t WHERE a = 1"),
            stock -> {
              NewDeleteFile file = stockDeleteFile(stock);
              return tx -> deleteFile = tx.registerDeleteFile(table, file);
            },
            Kind.STOCK,
            true,
            false,
            false),
        step("updateTableStats", null, tx -> tx.updateTableStats(table, 2, 600), false, false),
        step(
            "updateColumnStats",
            null,
            tx ->
                tx.updateColumnStats(
                    table,
                    1,
                    Optional.of(false),
                    Optional.empty(),
                    Optional.of("1"),
                    Optional.of("2"),
                    Optional.empty()),
            false,
            false),
        step(
            "addColumn",
            "ALTER TABLE s1.t ADD COLUMN c INTEGER",
            tx -> tx.addColumn(table, ColumnDef.of("c", "int32")),
            true,
            true),
        step(
            "renameColumn",
            "ALTER TABLE s1.t RENAME COLUMN b TO bb",
            tx -> tx.renameColumn(table, 2, "bb"),
            true,
            true),
        step(
            "changeColumnType",
            "ALTER TABLE s1.t ALTER COLUMN a TYPE BIGINT",
            tx -> tx.changeColumnType(table, 1, "int64"),
            true,
            true),
        step(
            "setColumnDefault",
            "ALTER TABLE s1.t ALTER COLUMN bb SET DEFAULT 'x'",
            tx -> tx.setColumnDefault(table, 2, "x"),
            true,
            true),
        step(
            "setColumnDefault (drop)",
            "ALTER TABLE s1.t ALTER COLUMN bb DROP DEFAULT",
            tx -> tx.setColumnDefault(table, 2, null),
            true,
            true),
        step(
            "setColumnNullable (set not null)",
            // Stock DuckLake checks NOT NULL against the column's statistics: a column with data.
            "ALTER TABLE s1.t ALTER COLUMN a SET NOT NULL",
            tx -> tx.setColumnNullable(table, 1, false),
            true,
            true),
        step(
            "setColumnNullable (drop not null)",
            "ALTER TABLE s1.t ALTER COLUMN a DROP NOT NULL",
            tx -> tx.setColumnNullable(table, 1, true),
            true,
            true),
        step(
            "setPartitionKey",
            "ALTER TABLE s1.t SET PARTITIONED BY (a)",
            tx -> tx.setPartitionKey(table, List.of(PartitionKey.identity(1))),
            true,
            true),
        rowsDiffer(
            "resetPartitionKey",
            "ALTER TABLE s1.t RESET PARTITIONED BY",
            tx -> tx.resetPartitionKey(table),
            true,
            true),
        step(
            "setSortKey",
            "ALTER TABLE s1.t SET SORTED BY (a ASC)",
            tx -> tx.setSortKey(table, List.of(A_ASC)),
            true,
            false),
        step(
            "resetSortKey",
            "ALTER TABLE s1.t RESET SORTED BY",
            tx -> tx.resetSortKey(table),
            true,
            false),
        step(
            "setComment (table)",
            "COMMENT ON TABLE s1.t IS 'a table'",
            tx -> tx.setComment(new TagTarget.Table(table), "a table"),
            true,
            false),
        step(
            "setComment (column)",
            "COMMENT ON COLUMN s1.t.a IS 'a column'",
            tx -> tx.setComment(new TagTarget.Column(table, 1), "a column"),
            true,
            false),
        step(
            "setTag",
            null,
            tx -> tx.setTag(new TagTarget.Table(table), "owner", "ops"),
            true,
            false),
        step(
            "removeTag",
            null,
            tx -> tx.removeTag(new TagTarget.Table(table), "owner"),
            true,
            false),
        step(
            "dropColumn",
            "ALTER TABLE s1.t DROP COLUMN c",
            tx -> tx.dropColumn(table, 3),
            true,
            true),
        step(
            "renameTable",
            "ALTER TABLE s1.t RENAME TO t2",
            tx -> tx.renameTable(table, "t2"),
            true,
            true),
        step("moveTable", null, tx -> tx.moveTable(table, otherSchema), true, true),
        step("moveTable (back)", null, tx -> tx.moveTable(table, schema), true, true),
        step("expireDeleteFile", null, tx -> tx.expireDeleteFile(table, deleteFile), false, false),
        step("expireDataFile", null, tx -> tx.expireDataFile(table, dataFile), false, false),
        step(
            "createView",
            "CREATE VIEW s1.v AS SELECT 1 AS x",
            tx -> view = tx.createView(schema, "v", "duckdb", "SELECT 1 AS x"),
            true,
            false),
        step("alterView", null, tx -> tx.alterView(view, "duckdb", "SELECT 2 AS x"), true, false),
        step(
            "setComment (view)",
            "COMMENT ON VIEW s1.v IS 'a view'",
            tx -> tx.setComment(new TagTarget.View(view), "a view"),
            true,
            false),
        step(
            "renameView",
            "ALTER VIEW s1.v RENAME TO v2",
            tx -> tx.renameView(view, "v2"),
            true,
            false),
        step("dropView", "DROP VIEW s1.v2", tx -> tx.dropView(view), true, false),
        step(
            "createMacro (scalar)",
            "CREATE MACRO s1.m(x) AS x + 1",
            tx ->
                macro =
                    tx.createMacro(
                        schema,
                        "m",
                        NewMacro.of(
                            NewMacro.Implementation.scalar(
                                "(x + 1)", NewMacro.Parameter.of("x", "unknown")))),
            true,
            false),
        step(
            "createMacro (table)",
            "CREATE MACRO s1.tm() AS TABLE SELECT 1 AS one",
            tx ->
                tableMacro =
                    tx.createMacro(
                        schema,
                        "tm",
                        NewMacro.of(NewMacro.Implementation.table("SELECT 1 AS one"))),
            true,
            false),
        step("dropMacro (scalar)", "DROP MACRO s1.m", tx -> tx.dropMacro(macro), true, false),
        step(
            "dropMacro (table)",
            "DROP MACRO TABLE s1.tm",
            tx -> tx.dropMacro(tableMacro),
            true,
            false),
        new Step(
            "setOption",
            List.of("CALL lake.set_option('parquet_compression', 'zstd')"),
            stock -> tx -> tx.setOption(OptionScope.global(), "parquet_compression", "zstd"),
            Kind.STOCK,
            false,
            false,
            false),
        step("dropTable", "DROP TABLE s1.t2", tx -> tx.dropTable(table), true, false),
        step("dropSchema", "DROP SCHEMA s2", tx -> tx.dropSchema(otherSchema), true, false));
  }

  /** The data file stock DuckLake wrote last, as its row describes it. */
  private static NewDataFile stockDataFile(ReferenceDuckLake stock) throws Exception {
    Map<String, Object> row = latest(stock.rows("ducklake_data_file"), "data_file_id");
    return NewDataFile.parquet(
        (String) row.get("path"),
        number(row, "record_count"),
        number(row, "file_size_bytes"),
        number(row, "footer_size"));
  }

  /** The delete file stock DuckLake wrote last, as its row describes it. */
  private static NewDeleteFile stockDeleteFile(ReferenceDuckLake stock) throws Exception {
    Map<String, Object> row = latest(stock.rows("ducklake_delete_file"), "delete_file_id");
    return NewDeleteFile.parquet(
        number(row, "data_file_id"),
        (String) row.get("path"),
        number(row, "delete_count"),
        number(row, "file_size_bytes"),
        number(row, "footer_size"));
  }

  private static long number(Map<String, Object> row, String column) {
    return ((Number) row.get(column)).longValue();
  }

  private static Map<String, Object> latest(List<Map<String, Object>> rows, String idColumn) {
    return rows.stream().max(Comparator.comparingLong(r -> number(r, idColumn))).orElseThrow();
  }
}
