package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.reference.ReferenceSnapshot;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema-version matrix: for every verb kind, whether its commit bumps {@code schema_version}
 * and whether it writes a {@code ducklake_schema_versions} row, pinned in one table and checked,
 * row by row, against what stock DuckLake 1.5.5 does for the corresponding SQL.
 *
 * <p>A view's create, alter and rename bump the version but, on both sides, add no {@code
 * ducklake_schema_versions} row: that table keys its rows by table id.
 *
 * <p>The rows run in order on one pair of lakes (ours on real SlateDB, stock DuckLake with inlining
 * off), each row one commit on each side, so a row's objects are those earlier rows made. A row
 * whose verb has no SQL counterpart in DuckDB 1.5.5 (moving a table between schemas, altering a
 * view in place, tags other than comments, expiring files, statistics alone) is checked on our side
 * only, against the value RFC 0004 §3 gives; its name says so.
 */
class SchemaVersionMatrixTest {
  @TempDir static Path dir;

  private static ReferenceDuckLake stock;
  private static SlateStoreProvider provider;
  private static KvStore store;
  private static Catalog catalog;

  // Ids on our side, from the rows that create them (ids are equal on both sides, but our verbs
  // take them while the SQL takes names).
  private static long schema;
  private static long otherSchema;
  private static long table;
  private static long view;
  private static long macro;
  private static long tableMacro;
  private static long dataFile;
  private static long deleteFile;

  @BeforeAll
  static void open() throws Exception {
    stock = ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0).open();
    provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory("sv-matrix-" + UUID.randomUUID()), "lake"));
    store = provider.openWriter();
    catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath("/somewhere/data/"));
  }

  @AfterAll
  static void close() throws Exception {
    try {
      if (catalog != null) {
        catalog.close();
      }
      if (store != null) {
        store.close();
      }
    } finally {
      ObjectStoreSpec.dropInMemory(
          ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
      stock.close();
    }
  }

  /**
   * One row of the matrix: a verb kind, its SQL on stock DuckLake (null when DuckDB has none), our
   * commit, and the pinned answers. {@code mints} is false only for options, which stay outside the
   * snapshot protocol on both sides.
   */
  record Row(
      String verb,
      List<String> sql,
      Consumer<Transaction> ours,
      boolean mints,
      boolean bumps,
      boolean recordsVersion) {
    @Override
    public String toString() {
      return verb
          + (sql == null ? " (no stock counterpart)" : "")
          + ": "
          + (bumps ? "bumps" : "does not bump")
          + (recordsVersion ? ", records" : "");
    }
  }

  private static Row row(
      String verb, String sql, Consumer<Transaction> ours, boolean bumps, boolean records) {
    return new Row(verb, sql == null ? null : List.of(sql), ours, true, bumps, records);
  }

  private static final SortKey A_ASC = new SortKey("a", "duckdb", "ASC", "NULLS_LAST");

  static Stream<Row> matrix() {
    return Stream.of(
        row("createSchema", "CREATE SCHEMA s1", tx -> schema = tx.createSchema("s1"), true, false),
        row(
            "createSchema (second)",
            "CREATE SCHEMA s2",
            tx -> otherSchema = tx.createSchema("s2"),
            true,
            false),
        row(
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
        row(
            "registerDataFile",
            "INSERT INTO s1.t VALUES (1, 'x'), (2, 'y')",
            tx ->
                dataFile =
                    tx.registerDataFile(table, NewDataFile.parquet("f.parquet", 2, 600, 300)),
            false,
            false),
        row(
            "registerDeleteFile",
            "DELETE FROM s1.t WHERE a = 1",
            tx ->
                deleteFile =
                    tx.registerDeleteFile(
                        table, NewDeleteFile.parquet(dataFile, "d.parquet", 1, 400, 200)),
            false,
            false),
        row("updateTableStats", null, tx -> tx.updateTableStats(table, 2, 600), false, false),
        row(
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
        row(
            "addColumn",
            "ALTER TABLE s1.t ADD COLUMN c INTEGER",
            tx -> tx.addColumn(table, ColumnDef.of("c", "int32")),
            true,
            true),
        row(
            "renameColumn",
            "ALTER TABLE s1.t RENAME COLUMN b TO bb",
            tx -> tx.renameColumn(table, 2, "bb"),
            true,
            true),
        row(
            "changeColumnType",
            "ALTER TABLE s1.t ALTER COLUMN a TYPE BIGINT",
            tx -> tx.changeColumnType(table, 1, "int64"),
            true,
            true),
        row(
            "setColumnDefault",
            "ALTER TABLE s1.t ALTER COLUMN bb SET DEFAULT 'x'",
            tx -> tx.setColumnDefault(table, 2, "x"),
            true,
            true),
        row(
            "setColumnDefault (drop)",
            "ALTER TABLE s1.t ALTER COLUMN bb DROP DEFAULT",
            tx -> tx.setColumnDefault(table, 2, null),
            true,
            true),
        row(
            "setColumnNullable (set not null)",
            // Stock DuckLake checks NOT NULL against the column's statistics: a column with data.
            "ALTER TABLE s1.t ALTER COLUMN a SET NOT NULL",
            tx -> tx.setColumnNullable(table, 1, false),
            true,
            true),
        row(
            "setColumnNullable (drop not null)",
            "ALTER TABLE s1.t ALTER COLUMN a DROP NOT NULL",
            tx -> tx.setColumnNullable(table, 1, true),
            true,
            true),
        row(
            "setPartitionKey",
            "ALTER TABLE s1.t SET PARTITIONED BY (a)",
            tx -> tx.setPartitionKey(table, List.of(PartitionKey.identity(1))),
            true,
            true),
        row(
            "resetPartitionKey",
            "ALTER TABLE s1.t RESET PARTITIONED BY",
            tx -> tx.resetPartitionKey(table),
            true,
            true),
        row(
            "setSortKey",
            "ALTER TABLE s1.t SET SORTED BY (a ASC)",
            tx -> tx.setSortKey(table, List.of(A_ASC)),
            true,
            false),
        row(
            "resetSortKey",
            "ALTER TABLE s1.t RESET SORTED BY",
            tx -> tx.resetSortKey(table),
            true,
            false),
        row(
            "setComment (table)",
            "COMMENT ON TABLE s1.t IS 'a table'",
            tx -> tx.setComment(new TagTarget.Table(table), "a table"),
            true,
            false),
        row(
            "setComment (column)",
            "COMMENT ON COLUMN s1.t.a IS 'a column'",
            tx -> tx.setComment(new TagTarget.Column(table, 1), "a column"),
            true,
            false),
        row(
            "setTag",
            null,
            tx -> tx.setTag(new TagTarget.Table(table), "owner", "ops"),
            true,
            false),
        row(
            "removeTag",
            null,
            tx -> tx.removeTag(new TagTarget.Table(table), "owner"),
            true,
            false),
        row(
            "dropColumn",
            "ALTER TABLE s1.t DROP COLUMN c",
            tx -> tx.dropColumn(table, 3),
            true,
            true),
        row(
            "renameTable",
            "ALTER TABLE s1.t RENAME TO t2",
            tx -> tx.renameTable(table, "t2"),
            true,
            true),
        row("moveTable", null, tx -> tx.moveTable(table, otherSchema), true, true),
        row("moveTable (back)", null, tx -> tx.moveTable(table, schema), true, true),
        row("expireDeleteFile", null, tx -> tx.expireDeleteFile(table, deleteFile), false, false),
        row("expireDataFile", null, tx -> tx.expireDataFile(table, dataFile), false, false),
        row(
            "createView",
            "CREATE VIEW s1.v AS SELECT 1 AS x",
            tx -> view = tx.createView(schema, "v", "duckdb", "SELECT 1 AS x"),
            true,
            false),
        row("alterView", null, tx -> tx.alterView(view, "duckdb", "SELECT 2 AS x"), true, false),
        row(
            "setComment (view)",
            "COMMENT ON VIEW s1.v IS 'a view'",
            tx -> tx.setComment(new TagTarget.View(view), "a view"),
            true,
            false),
        row(
            "renameView",
            "ALTER VIEW s1.v RENAME TO v2",
            tx -> tx.renameView(view, "v2"),
            true,
            false),
        row("dropView", "DROP VIEW s1.v2", tx -> tx.dropView(view), true, false),
        row(
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
        row(
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
        row("dropMacro (scalar)", "DROP MACRO s1.m", tx -> tx.dropMacro(macro), true, false),
        row(
            "dropMacro (table)",
            "DROP MACRO TABLE s1.tm",
            tx -> tx.dropMacro(tableMacro),
            true,
            false),
        new Row(
            "setOption",
            List.of("CALL lake.set_option('parquet_compression', 'zstd')"),
            tx -> tx.setOption(OptionScope.global(), "parquet_compression", "zstd"),
            false,
            false,
            false),
        row("dropTable", "DROP TABLE s1.t2", tx -> tx.dropTable(table), true, false),
        row("dropSchema", "DROP SCHEMA s2", tx -> tx.dropSchema(otherSchema), true, false));
  }

  /** Our head's schema_version and snapshot id, and our count of schema_versions rows. */
  private record Ours(long snapshotId, long schemaVersion, int versionRows) {
    static Ours now() {
      var snapshot = catalog.snapshot();
      return new Ours(
          snapshot.snapshotId(),
          snapshot.info().schemaVersion(),
          DuckLakeRowRenderer.render(snapshot).rows("ducklake_schema_versions").size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matrix")
  void verbKind_bumpsSchemaVersion_asStockDuckLakeDoes(Row row) throws Exception {
    // Stock DuckLake first, so that a row our side gets wrong still leaves both lakes in step.
    List<Executable> checks = new ArrayList<>();
    if (row.sql() != null) {
      ReferenceSnapshot stockBefore = stock.latestSnapshot();
      int stockRowsBefore = stock.rows("ducklake_schema_versions").size();
      try (ReferenceSession session = stock.session()) {
        session.executeAll(row.sql());
      }
      ReferenceSnapshot stockAfter = stock.latestSnapshot();
      int stockRowsAfter = stock.rows("ducklake_schema_versions").size();
      checks.add(
          () ->
              assertEquals(
                  row.mints(),
                  stockAfter.snapshotId() > stockBefore.snapshotId(),
                  "stock DuckLake mints a snapshot"));
      checks.add(
          () ->
              assertEquals(
                  row.bumps() ? 1 : 0,
                  stockAfter.schemaVersion() - stockBefore.schemaVersion(),
                  "stock DuckLake's bump"));
      checks.add(
          () ->
              assertEquals(
                  row.recordsVersion(),
                  stockRowsAfter > stockRowsBefore,
                  "stock DuckLake writes a schema_versions row"));
    }
    Ours before = Ours.now();
    catalog.commit(row.ours()::accept);
    Ours after = Ours.now();
    checks.add(
        () ->
            assertEquals(
                row.mints(), after.snapshotId() > before.snapshotId(), "ours mints a snapshot"));
    checks.add(
        () ->
            assertEquals(
                row.bumps() ? 1 : 0, after.schemaVersion() - before.schemaVersion(), "our bump"));
    checks.add(
        () ->
            assertEquals(
                row.recordsVersion(),
                after.versionRows() > before.versionRows(),
                "ours writes a schema_versions row"));
    assertAll(row.toString(), checks);
  }
}
