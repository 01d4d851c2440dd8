package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Raced pairs that need data on both sides, in the manner of {@link VerbRaceDifferentialTest}: on
 * stock DuckLake two sessions run from one premise and the first commits first; on our side the
 * second closure's first run commits the first on another thread, so the second loses the head and
 * is classified. The second must land exactly when stock DuckLake lands it.
 *
 * <p>The Parquet files are stock DuckLake's: each session's statements write data and delete files
 * into its data path, and our closures register those very files (a file a refused stock session
 * wrote stays on disk and serves our side just as well), with the counts, sizes and bounds read
 * from the files themselves. The ducklake_* rows must then be equal, the compaction pairs'
 * included: {@code mergeDataFiles} and {@code rewriteDataFiles} register the file stock DuckLake's
 * merge or rewrite wrote and must leave the rows it left (RFC 0005 §2 and §6).
 *
 * <p>Inlined data is off on the stock side: inlined inserts and deletes race elsewhere.
 */
class DataRaceDifferentialTest {

  /**
   * The pairs whose refused second is refused here as {@code ALREADY_EXISTS} after one re-run,
   * where stock DuckLake reports a conflict: two creations of one name (RFC 0004 §8.3 item 1).
   * Every other refused second is a {@code COMMIT_CONFLICT} on its first run.
   */
  private static final Set<String> NAME_TAKEN = Set.of("create table as/create table as same name");

  /** What a session's statements wrote to the data path: data files and delete files. */
  record Written(List<Path> dataFiles, List<Path> deleteFiles) {}

  /** Our side of a step, built once stock DuckLake ran it and its files are on disk. */
  interface Ours {
    CommitBody build(StockFiles files, Written written) throws Exception;
  }

  /** One setup commit: SQL on stock DuckLake, then our verbs for what it wrote. */
  record Setup(String sql, Ours ours) {}

  record Pair(
      String name,
      List<Setup> setup,
      String firstSql,
      Ours first,
      String secondSql,
      Ours second,
      boolean conflicts) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Table t (id 1): two columns, ids 1 and 2. */
  private static final Setup TABLE_T =
      new Setup(
          "CREATE TABLE t (i INTEGER, s VARCHAR)",
          (f, w) ->
              tx ->
                  tx.createTable(
                      0, "t", List.of(ColumnDef.of("i", "int32"), ColumnDef.of("s", "varchar"))));

  private static String insert(int from, int to) {
    return "INSERT INTO t SELECT range::INTEGER AS i, 'v' || range AS s FROM range("
        + from
        + ", "
        + to
        + ")";
  }

  /**
   * Registers every data file written into table t, with its column statistics (the table's are
   * derived from them).
   */
  private static final Ours INSERT_T =
      (f, w) -> {
        List<NewDataFile> files = new ArrayList<>();
        for (Path p : w.dataFiles()) {
          files.add(f.dataFile(p, 1, 2));
        }
        return tx -> files.forEach(file -> tx.registerDataFile(1, file));
      };

  private static Setup insertT(int from, int to) {
    return new Setup(insert(from, to), INSERT_T);
  }

  /** Registers every delete file written, each against the data file it names. */
  private static final Ours DELETE_T =
      (f, w) -> {
        List<NewDeleteFile> deletes = new ArrayList<>();
        for (Path p : w.deleteFiles()) {
          deletes.add(f.deleteFile(p));
        }
        return tx -> deletes.forEach(d -> tx.registerDeleteFile(1, d));
      };

  /** Table t with two files of ten rows, which stock DuckLake's merge takes together. */
  private static final List<Setup> MERGE_SETUP = List.of(TABLE_T, insertT(0, 10), insertT(10, 20));

  private static final String MERGE_SQL = "CALL ducklake_merge_adjacent_files('lake')";

  /** Merges data files 0 and 1 into the file stock DuckLake's merge wrote. */
  private static final Ours MERGE_T =
      (f, w) -> {
        NewDataFile merged = f.dataFile(w.dataFiles().get(0), 1, 2);
        return tx -> tx.mergeDataFiles(1, List.of(0L, 1L), merged);
      };

  /**
   * Table t with two files of ten rows, six of the first one's deleted: stock DuckLake's rewrite
   * with a threshold of one half takes the first file only.
   */
  private static final List<Setup> REWRITE_SETUP =
      List.of(
          TABLE_T,
          insertT(0, 10),
          insertT(10, 20),
          new Setup("DELETE FROM t WHERE i < 6", DELETE_T));

  private static final String REWRITE_SQL =
      "CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0.5)";

  /** Rewrites data file 0 into the file stock DuckLake's rewrite wrote. */
  private static final Ours REWRITE_T =
      (f, w) -> {
        NewDataFile rewritten = f.dataFile(w.dataFiles().get(0), 1, 2);
        return tx -> tx.rewriteDataFiles(1, List.of(0L), rewritten);
      };

  /** Creates a table {@code name} (i INTEGER) and registers the file its CREATE TABLE AS wrote. */
  private static Ours ctas(String name) {
    return (f, w) -> {
      NewDataFile file = f.dataFile(w.dataFiles().get(0), 1);
      return tx -> {
        long id = tx.createTable(0, name, List.of(ColumnDef.of("i", "int32")));
        tx.registerDataFile(id, file);
      };
    };
  }

  private static String ctasSql(String name) {
    return "CREATE TABLE " + name + " AS SELECT range::INTEGER AS i FROM range(5)";
  }

  static Stream<Pair> pairs() {
    return Stream.of(
        new Pair(
            "insert/insert same table",
            List.of(TABLE_T),
            insert(0, 10),
            INSERT_T,
            insert(10, 20),
            INSERT_T,
            false),
        new Pair(
            "delete/delete same file",
            List.of(TABLE_T, insertT(0, 10)),
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            "DELETE FROM t WHERE i = 2",
            DELETE_T,
            true),
        new Pair(
            "delete/delete disjoint files",
            List.of(TABLE_T, insertT(0, 10), insertT(10, 20)),
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            "DELETE FROM t WHERE i = 15",
            DELETE_T,
            false),
        new Pair(
            "drop table then delete",
            List.of(TABLE_T, insertT(0, 10)),
            "DROP TABLE t",
            (f, w) -> tx -> tx.dropTable(1),
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            true),
        new Pair(
            "delete then drop table",
            List.of(TABLE_T, insertT(0, 10)),
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            "DROP TABLE t",
            (f, w) -> tx -> tx.dropTable(1),
            false),
        new Pair(
            "add column then insert",
            List.of(TABLE_T, insertT(0, 10)),
            "ALTER TABLE t ADD COLUMN x INTEGER",
            (f, w) -> tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            insert(10, 20),
            INSERT_T,
            true),
        new Pair(
            "drop column then insert",
            List.of(TABLE_T, insertT(0, 10)),
            "ALTER TABLE t DROP COLUMN s",
            (f, w) -> tx -> tx.dropColumn(1, 2),
            insert(10, 20),
            INSERT_T,
            true),
        new Pair(
            "insert then add column",
            List.of(TABLE_T, insertT(0, 10)),
            insert(10, 20),
            INSERT_T,
            "ALTER TABLE t ADD COLUMN x INTEGER",
            (f, w) -> tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            false),
        new Pair(
            "compaction then delete",
            MERGE_SETUP,
            MERGE_SQL,
            MERGE_T,
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            true),
        new Pair(
            "delete then compaction",
            MERGE_SETUP,
            "DELETE FROM t WHERE i = 1",
            DELETE_T,
            MERGE_SQL,
            MERGE_T,
            true),
        new Pair(
            "compaction then insert",
            MERGE_SETUP,
            MERGE_SQL,
            MERGE_T,
            insert(20, 30),
            INSERT_T,
            false),
        new Pair(
            "insert then compaction",
            MERGE_SETUP,
            insert(20, 30),
            INSERT_T,
            MERGE_SQL,
            MERGE_T,
            false),
        new Pair(
            "add column then compaction",
            MERGE_SETUP,
            "ALTER TABLE t ADD COLUMN x INTEGER",
            (f, w) -> tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            MERGE_SQL,
            MERGE_T,
            false),
        new Pair(
            "compaction then add column",
            MERGE_SETUP,
            MERGE_SQL,
            MERGE_T,
            "ALTER TABLE t ADD COLUMN x INTEGER",
            (f, w) -> tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            false),
        new Pair(
            "drop table then compaction",
            MERGE_SETUP,
            "DROP TABLE t",
            (f, w) -> tx -> tx.dropTable(1),
            MERGE_SQL,
            MERGE_T,
            true),
        new Pair(
            "compaction then drop table",
            MERGE_SETUP,
            MERGE_SQL,
            MERGE_T,
            "DROP TABLE t",
            (f, w) -> tx -> tx.dropTable(1),
            false),
        new Pair(
            "compaction then compaction",
            MERGE_SETUP,
            MERGE_SQL,
            MERGE_T,
            MERGE_SQL,
            MERGE_T,
            true),
        new Pair(
            "rewrite then rewrite",
            REWRITE_SETUP,
            REWRITE_SQL,
            REWRITE_T,
            REWRITE_SQL,
            REWRITE_T,
            true),
        new Pair(
            "rewrite then insert",
            REWRITE_SETUP,
            REWRITE_SQL,
            REWRITE_T,
            insert(20, 30),
            INSERT_T,
            false),
        new Pair(
            "insert then rewrite",
            REWRITE_SETUP,
            insert(20, 30),
            INSERT_T,
            REWRITE_SQL,
            REWRITE_T,
            false),
        new Pair(
            "rewrite then delete",
            REWRITE_SETUP,
            REWRITE_SQL,
            REWRITE_T,
            "DELETE FROM t WHERE i = 15",
            DELETE_T,
            true),
        new Pair(
            "delete then rewrite",
            REWRITE_SETUP,
            "DELETE FROM t WHERE i = 15",
            DELETE_T,
            REWRITE_SQL,
            REWRITE_T,
            true),
        new Pair(
            "add column then rewrite",
            REWRITE_SETUP,
            "ALTER TABLE t ADD COLUMN x INTEGER",
            (f, w) -> tx -> tx.addColumn(1, ColumnDef.of("x", "int32")),
            REWRITE_SQL,
            REWRITE_T,
            false),
        new Pair(
            "create table as/create table as same name",
            List.of(),
            ctasSql("a"),
            ctas("a"),
            ctasSql("a"),
            ctas("a"),
            true),
        new Pair(
            "create table as/create table as different names",
            List.of(),
            ctasSql("a"),
            ctas("a"),
            ctasSql("b"),
            ctas("b"),
            false));
  }

  /** Facts of stock DuckLake's files, for our closures. */
  static final class StockFiles {
    private final ReferenceDuckLake stock;

    StockFiles(ReferenceDuckLake stock) {
      this.stock = stock;
    }

    ParquetFacts facts(Path file) throws Exception {
      return ParquetFacts.read(stock, file);
    }

    /**
     * A data file registration of {@code file}, its i-th column as table column ids[i]; columns
     * past the ids given (a compacted file's row ids) get no statistics.
     */
    NewDataFile dataFile(Path file, long... columnIds) throws Exception {
      ParquetFacts f = facts(file);
      ParquetFacts named =
          new ParquetFacts(
              f.records(),
              f.fileSize(),
              f.footerSize(),
              f.columns().subList(0, Math.min(columnIds.length, f.columns().size())));
      return new NewDataFile(
          file.getFileName().toString(),
          true,
          "parquet",
          f.records(),
          f.fileSize(),
          f.footerSize(),
          Optional.empty(),
          named.stats(columnIds),
          List.of());
    }

    /**
     * A delete file registration of {@code file}: it names one data file (by its path inside the
     * file), which stock DuckLake's rows identify.
     */
    NewDeleteFile deleteFile(Path file) throws Exception {
      ParquetFacts f = facts(file);
      String literal = "'" + file.toString().replace("'", "''") + "'";
      List<Map<String, Object>> targets =
          stock.query("SELECT DISTINCT file_path FROM read_parquet(" + literal + ")");
      assertEquals(1, targets.size(), "a delete file names one data file");
      String target = Path.of((String) targets.get(0).get("file_path")).getFileName().toString();
      long dataFileId =
          stock.rows("ducklake_data_file").stream()
              .filter(r -> target.equals(Path.of((String) r.get("path")).getFileName().toString()))
              .map(r -> ((Number) r.get("data_file_id")).longValue())
              .findFirst()
              .orElseThrow(() -> new AssertionError("no data file row for " + target));
      return NewDeleteFile.parquet(
          dataFileId, file.getFileName().toString(), f.records(), f.fileSize(), f.footerSize());
    }
  }

  /** Every Parquet file under the stock lake's data path. */
  private static Set<Path> parquetFiles(ReferenceDuckLake stock) throws IOException {
    Path root = Path.of(stock.dataPath());
    if (!Files.exists(root)) {
      return Set.of();
    }
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> p.toString().endsWith(".parquet"))
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  /** Runs {@code sql} in {@code session} and returns the files it wrote. */
  private static Written run(ReferenceDuckLake stock, ReferenceSession session, String sql)
      throws Exception {
    Set<Path> before = parquetFiles(stock);
    session.executeAll(List.of(sql));
    List<Path> data = new ArrayList<>();
    List<Path> deletes = new ArrayList<>();
    for (Path p : parquetFiles(stock)) {
      if (!before.contains(p)) {
        (p.getFileName().toString().endsWith("-delete.parquet") ? deletes : data).add(p);
      }
    }
    return new Written(data, deletes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void secondLandsExactlyWhenStockDuckLakeLandsIt(Pair pair, @TempDir Path dir) throws Exception {
    try (PairedLakes lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock"))
                .dataInliningRowLimit(0)
                .maxRetryCount(2)
                .retryWaitMillis(1),
            "data-race")) {
      ReferenceDuckLake stock = lakes.stock;
      Catalog catalog = lakes.catalog;
      StockFiles files = new StockFiles(stock);
      // The setup, one commit per statement on each side.
      for (Setup s : pair.setup()) {
        Written w;
        try (ReferenceSession session = stock.session()) {
          w = run(stock, session, s.sql());
        }
        catalog.commit(s.ours().build(files, w));
      }
      // Stock DuckLake: both transactions run from one premise, the first commits first.
      Written[] wrote = new Written[2];
      CommitBody[] bodies = new CommitBody[2];
      CommitOutcome stockSecond =
          CommitRace.onStock(
              stock,
              first -> wrote[0] = run(stock, first, pair.firstSql()),
              second -> {
                wrote[1] = run(stock, second, pair.secondSql());
                // Our closures read the files now: stock DuckLake removes a refused session's
                // files.
                bodies[0] = pair.first().build(files, wrote[0]);
                bodies[1] = pair.second().build(files, wrote[1]);
              },
              pair.conflicts());

      // Ours: the second's first run waits for the first to commit on another thread.
      long premise = catalog.snapshot().info().snapshotId();
      CommitRace.Ours ours =
          CommitRace.onOursPinned(lakes, bodies[0], bodies[1], NAME_TAKEN.contains(pair.name()));
      assertTrue(
          catalog.snapshot().info().snapshotId() > premise, "the first commit landed on our side");
      assertEquals(
          stockSecond.committed(),
          ours.landed(),
          "our second commit lands as stock DuckLake's " + ours.refusal());
      assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()));
    }
  }
}
