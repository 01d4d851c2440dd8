package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry of inlined-data tables ({@code ducklake_inlined_data_tables} and the tables it
 * names) against stock DuckLake 1.5.5 with inlining on (DATA_INLINING_ROW_LIMIT 10), step by step,
 * with no row inlined in the steps that create or re-shape a table: stock opens an empty
 * inlined-data table for the new schema version on CREATE TABLE and on each ALTER that changes the
 * table's columns, name or partition key, none for a default, a comment or a table whose limit is
 * 0, inserts into the newest one, keeps a dropped table's, and a flush leaves only the newest of a
 * table registered. After every step both catalogs hold the same ducklake_* rows and the same
 * inlined tables.
 */
class InlinedTableRegistryDifferentialTest {
  @TempDir static Path dir;

  private static PairedLakes lakes;
  private static ReferenceDuckLake stock;

  /** Table r: id 1 on both sides; columns a (1), n (2), b (3, renamed c, later dropped). */
  private static final long R = 1;

  @BeforeAll
  static void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(10), "registry");
    stock = lakes.stock;
  }

  @AfterAll
  static void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  private static SqlStep step(String name, List<String> sql, Consumer<Transaction> verbs) {
    return SqlStep.of(name, sql, verbs);
  }

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** Our id of the table named {@code name} in schema main. */
  private static long table(Catalog catalog, String name) {
    return catalog.snapshot().tableByName(0, name).orElseThrow().tableId();
  }

  private static long latestDataFile() throws Exception {
    return stock.rows("ducklake_data_file").stream()
        .map(r -> ((Number) r.get("data_file_id")).longValue())
        .max(Comparator.naturalOrder())
        .orElseThrow();
  }

  private static List<SqlStep> steps() {
    List<SqlStep> s = new ArrayList<>();
    s.add(
        step(
            "create a table: an empty inlined-data table for its first version",
            List.of("CREATE TABLE r (a INTEGER, n INTEGER)"),
            tx ->
                tx.createTable(
                    0, "r", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("n", "int32")))));
    s.add(
        step(
            "add a column: another",
            List.of("ALTER TABLE r ADD COLUMN b VARCHAR"),
            tx -> tx.addColumn(R, ColumnDef.of("b", "varchar"))));
    s.add(
        step(
            "rename the table: another, although its columns stay",
            List.of("ALTER TABLE r RENAME TO r2"),
            tx -> tx.renameTable(R, "r2")));
    s.add(
        step(
            "rename a column: another",
            List.of("ALTER TABLE r2 RENAME COLUMN b TO c"),
            tx -> tx.renameColumn(R, 3, "c")));
    s.add(
        step(
            "comment on the table: none",
            List.of("COMMENT ON TABLE r2 IS 'a table'"),
            tx -> tx.setComment(new TagTarget.Table(R), "a table")));
    s.add(
        step(
            "set a column's default: none, though a schema-versions row",
            List.of("ALTER TABLE r2 ALTER COLUMN n SET DEFAULT 3"),
            tx -> tx.setColumnDefault(R, 2, "3")));
    s.add(
        step(
            "insert: into the newest registered table",
            List.of("INSERT INTO r2 VALUES (1, 2, 'x'), (4, 5, NULL)"),
            tx -> tx.insertInlined(R, List.of(row(1, 2, "x"), row(4, 5, null)))));
    s.add(
        new SqlStep(
            "flush: only the newest of the table stays registered",
            List.of("CALL ducklake_flush_inlined_data('lake')"),
            () -> {
              long flushed = latestDataFile();
              String path =
                  (String)
                      stock.rows("ducklake_data_file").stream()
                          .filter(r -> ((Number) r.get("data_file_id")).longValue() == flushed)
                          .findFirst()
                          .orElseThrow()
                          .get("path");
              NewDataFile file =
                  ParquetFacts.read(stock, Path.of(stock.dataPath(), "main", "r", path))
                      .registration(path, List.of("a", "n", "c"));
              return tx -> tx.flushInlined(R, InlineFlush.of(file));
            }));
    s.add(
        step(
            "insert after the flush: into the one left",
            List.of("INSERT INTO r2 VALUES (7, 8, 'y')"),
            tx -> tx.insertInlined(R, List.of(row(7, 8, "y")))));
    s.add(
        step(
            "drop a column: another",
            List.of("ALTER TABLE r2 DROP COLUMN c"),
            tx -> tx.dropColumn(R, 3)));
    s.add(
        step(
            "partition the table: another",
            List.of("ALTER TABLE r2 SET PARTITIONED BY (a)"),
            tx -> tx.setPartitionKey(R, List.of(PartitionKey.identity(1)))));
    s.add(
        step(
            "change a column's type: another",
            List.of("ALTER TABLE r2 ALTER COLUMN a SET TYPE BIGINT"),
            tx -> tx.changeColumnType(R, 1, "int64")));
    s.add(
        step(
            "create another table",
            List.of("CREATE TABLE w (x INTEGER)"),
            tx -> tx.createTable(0, "w", List.of(ColumnDef.of("x", "int32")))));
    s.add(
        new SqlStep(
            "drop it: its registration stays",
            List.of("DROP TABLE w"),
            () -> {
              long w = table(lakes.catalog, "w");
              return tx -> tx.dropTable(w);
            }));
    s.add(
        step(
            "create a table whose limit is then set to 0",
            List.of("CREATE TABLE z (x INTEGER)"),
            tx -> tx.createTable(0, "z", List.of(ColumnDef.of("x", "int32")))));
    s.add(
        new SqlStep(
            "re-shape it with its limit at 0: none",
            List.of(
                "CALL lake.set_option('data_inlining_row_limit', 0, table_name => 'z')",
                "ALTER TABLE z ADD COLUMN y INTEGER"),
            () -> {
              long z = table(lakes.catalog, "z");
              lakes.catalog.commit(
                  tx -> tx.setOption(new OptionScope.Table(z), "data_inlining_row_limit", "0"));
              return tx -> tx.addColumn(z, ColumnDef.of("y", "int32"));
            }));
    return s;
  }

  @TestFactory
  Stream<DynamicTest> everyStep_registersTheInlinedTablesStockDoes() {
    return steps().stream().map(st -> DynamicTest.dynamicTest(st.name(), () -> run(st)));
  }

  private static void run(SqlStep st) throws Exception {
    DuckLakeRowSet ours = st.runOn(lakes);
    assertEquals(List.of(), RowComparison.differences(stock, ours), st.name());
    assertEquals(List.of(), InlinedRowComparison.differences(stock, ours), st.name());
  }
}
