package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The overlapping pairs of the conflict suite that our verbs can express, raced on both sides from
 * one premise. On stock DuckLake both transactions begin and run before the first commits; on our
 * side the second closure's first run makes the first commit on another thread and waits for it, so
 * the second's store transaction (opened before the head was read) loses the head and is
 * classified. The second must land exactly when stock DuckLake lands it, and afterwards both
 * catalogs hold the same ducklake_* rows.
 *
 * <p>A refused second commit is a conflict on stock DuckLake. Ours is pinned pair by pair: a {@link
 * CommitConflictException} on the first run, or, for two creations of one name, an {@link
 * AlreadyExistsException} from the re-run ({@code NAME_TAKEN}); a second that lands ran twice.
 */
class VerbRaceDifferentialTest {

  /**
   * The pairs whose refused second is refused here as {@code ALREADY_EXISTS} after one re-run,
   * where stock DuckLake reports a conflict: two creations of one name (RFC 0004 §8.3 item 1).
   * Every other refused second is a {@code COMMIT_CONFLICT} on its first run.
   */
  private static final Set<String> NAME_TAKEN =
      Set.of(
          "create/create same name",
          "create/create same name other case",
          "create table/create view same name",
          "rename/create same name");

  record Pair(
      String name,
      List<String> setupSql,
      List<CommitBody> setup,
      String firstSql,
      CommitBody first,
      String secondSql,
      CommitBody second,
      boolean conflicts) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<String> TABLE_T = List.of("CREATE TABLE t (i INTEGER, s VARCHAR)");
  private static final CommitBody TABLE_T_VERBS =
      tx ->
          tx.createTable(0, "t", List.of(ColumnDef.of("i", "int32"), ColumnDef.of("s", "varchar")));
  private static final List<String> SCHEMA_S = List.of("CREATE SCHEMA s");
  private static final CommitBody SCHEMA_S_VERBS = tx -> tx.createSchema("s");

  private static CommitBody table(long schema, String name) {
    return tx -> tx.createTable(schema, name, List.of(ColumnDef.of("i", "int32")));
  }

  static List<Pair> pairs() {
    List<Pair> p = new ArrayList<>();
    p.add(
        new Pair(
            "create/create same name",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            true));
    p.add(
        new Pair(
            "create/create same name other case",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            "CREATE TABLE \"N\" (i INTEGER)",
            table(0, "N"),
            true));
    p.add(
        new Pair(
            "create/create different names",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE TABLE n1 (i INTEGER)",
            table(0, "n1"),
            "CREATE TABLE n2 (i INTEGER)",
            table(0, "n2"),
            false));
    p.add(
        new Pair(
            "create table/create view same name",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            "CREATE VIEW n AS SELECT 1 AS i",
            tx -> tx.createView(0, "n", "duckdb", "SELECT 1 AS i"),
            true));
    p.add(
        new Pair(
            "rename/create same name",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "ALTER TABLE t RENAME TO n",
            tx -> tx.renameTable(1, "n"),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            true));
    p.add(
        new Pair(
            "drop then alter",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "DROP TABLE t",
            tx -> tx.dropTable(1),
            "ALTER TABLE t ADD COLUMN x INTEGER",
            tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            true));
    p.add(
        new Pair(
            "alter/alter different tables",
            // Two commits: within one transaction stock DuckLake does not number new tables in
            // statement order.
            List.of("CREATE TABLE t (i INTEGER)", "CREATE TABLE u (i INTEGER)"),
            List.of(table(0, "t"), table(0, "u")),
            "ALTER TABLE t ADD COLUMN x INTEGER",
            tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            "ALTER TABLE u ADD COLUMN y INTEGER",
            tx -> tx.addColumn(2, ColumnDef.of("y", "int32")),
            false));
    p.add(
        new Pair(
            "create schema/create schema same name",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE SCHEMA s",
            tx -> tx.createSchema("s"),
            "CREATE SCHEMA s",
            tx -> tx.createSchema("s"),
            true));
    p.add(
        new Pair(
            "create schema/create schema different names",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE SCHEMA s1",
            tx -> tx.createSchema("s1"),
            "CREATE SCHEMA s2",
            tx -> tx.createSchema("s2"),
            false));
    p.add(
        new Pair(
            "drop schema then create table",
            SCHEMA_S,
            List.of(SCHEMA_S_VERBS),
            "DROP SCHEMA s",
            tx -> tx.dropSchema(1),
            "CREATE TABLE s.x (i INTEGER)",
            table(1, "x"),
            true));
    p.add(
        new Pair(
            "create table then drop schema",
            SCHEMA_S,
            List.of(SCHEMA_S_VERBS),
            "CREATE TABLE s.x (i INTEGER)",
            table(1, "x"),
            "DROP SCHEMA s",
            tx -> tx.dropSchema(1),
            true));
    p.add(
        new Pair(
            "drop schema/drop schema",
            SCHEMA_S,
            List.of(SCHEMA_S_VERBS),
            "DROP SCHEMA s",
            tx -> tx.dropSchema(1),
            "DROP SCHEMA s",
            tx -> tx.dropSchema(1),
            true));
    // Both drafts number their new table 2 (the premise's next_catalog_id): provisional ids that
    // must not be matched against each other. Stock DuckLake lands the second with id 3.
    p.add(
        new Pair(
            "create and alter/create and alter",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CREATE TABLE b (i INTEGER); ALTER TABLE b ADD COLUMN j INTEGER",
            tx -> {
              long b = tx.createTable(0, "b", List.of(ColumnDef.of("i", "int32")));
              tx.addColumn(b, ColumnDef.of("j", "int32"));
            },
            "CREATE TABLE a (i INTEGER); ALTER TABLE a ADD COLUMN j INTEGER",
            tx -> {
              long a = tx.createTable(0, "a", List.of(ColumnDef.of("i", "int32")));
              tx.addColumn(a, ColumnDef.of("j", "int32"));
            },
            false));
    p.add(
        new Pair(
            "set option then create table",
            TABLE_T,
            List.of(TABLE_T_VERBS),
            "CALL lake.set_option('parquet_compression', 'zstd')",
            tx -> tx.setOption(OptionScope.global(), "parquet_compression", "zstd"),
            "CREATE TABLE n (i INTEGER)",
            table(0, "n"),
            false));
    return p;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void secondLandsExactlyWhenStockDuckLakeLandsIt_andTheRowsAgree(Pair pair, @TempDir Path dir)
      throws Exception {
    try (PairedLakes lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock"))
                .dataInliningRowLimit(0)
                .maxRetryCount(2)
                .retryWaitMillis(1),
            "verb-race")) {
      ReferenceDuckLake stock = lakes.stock;
      Catalog catalog = lakes.catalog;
      // Stock DuckLake: both transactions run from one premise, the first commits first.
      stock.executeAll(pair.setupSql());
      CommitOutcome stockSecond =
          CommitRace.onStock(
              stock,
              first -> first.executeAll(statements(pair.firstSql())),
              second -> second.executeAll(statements(pair.secondSql())),
              pair.conflicts());

      // Ours: the second's first run waits for the first to commit on another thread.
      pair.setup().forEach(catalog::commit);
      long premise = catalog.snapshot().info().snapshotId();
      CommitRace.Ours ours =
          CommitRace.onOursPinned(
              lakes, pair.first(), pair.second(), NAME_TAKEN.contains(pair.name()));
      assertTrue(
          catalog.snapshot().info().snapshotId() > premise, "the first commit landed on our side");
      assertEquals(
          stockSecond.committed(),
          ours.landed(),
          "our second commit lands as stock DuckLake's " + ours.refusal());
      assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()));
    }
  }

  private static List<String> statements(String sql) {
    return List.of(sql.split("; "));
  }
}
