package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.store.ObjectStoreLakeFiles;
import dev.moraine.store.ObjectStoreSpec;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same logical operations, one commit per step, go through our verbs (on real SlateDB) and
 * through SQL on stock DuckLake 1.5.5; after every step both catalogs hold the same ducklake_*
 * rows, with only the fields {@link RowComparison} names normalised. Steps run in order on one pair
 * of lakes; each is its own dynamic test, so a failing step names itself.
 */
class VerbDifferentialTest {
  @TempDir static Path dir;

  private static PairedLakes lakes;
  private static ReferenceDuckLake stock;
  private static Catalog catalog;

  @BeforeAll
  static void open() throws Exception {
    // Our verbs inline no rows, so stock DuckLake inlines none either (with inlining on it opens
    // an inlined-data table for every new table).
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0), "verb-diff");
    stock = lakes.stock;
    catalog = lakes.catalog;
  }

  @AfterAll
  static void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  private static SqlStep step(String name, String sql, Consumer<Transaction> verbs) {
    return SqlStep.of(name, List.of(sql), verbs);
  }

  private static SqlStep step(String name, List<String> sql, Consumer<Transaction> verbs) {
    return SqlStep.of(name, sql, verbs);
  }

  /**
   * Table d (id 6) gets a data file. Stock DuckLake writes it with an INSERT (inlining is off); our
   * side registers that very file, under the path stock DuckLake gave it, with the counts, sizes
   * and bounds read from the file's own footer. ({@link #addFileByName} registers a foreign file,
   * which DuckLake maps by name.)
   */
  private static SqlStep addFile(String name, String select) {
    return new SqlStep(
        "register data file " + name,
        List.of("INSERT INTO s1.d " + select),
        () -> {
          Map<String, Object> row = latest(stock.rows("ducklake_data_file"), "data_file_id");
          String path = (String) row.get("path");
          ParquetFacts f = ParquetFacts.read(stock, Path.of(stock.dataPath(), "s1", "d", path));
          NewDataFile data =
              new NewDataFile(
                  path,
                  true,
                  "parquet",
                  f.records(),
                  f.fileSize(),
                  f.footerSize(),
                  Optional.empty(),
                  f.stats(1, 2),
                  List.of());
          return tx -> tx.registerDataFile(6, data);
        });
  }

  /**
   * A Parquet file written by DuckDB outside the lake (no field ids, its columns in the order
   * {@code s, i}) is added to table d: stock DuckLake through {@code ducklake_add_data_files},
   * which maps it by name; our side through {@code registerDataFileByName} with the file's own
   * fields, at the same absolute path, with the counts, sizes and bounds read from its footer.
   */
  private static SqlStep addFileByName(String name, String select) {
    Path outside = dir.resolve(name);
    return new SqlStep(
        "register data file by name " + name,
        List.of(
            "COPY (" + select + ") TO '" + outside + "' (FORMAT parquet)",
            "CALL ducklake_add_data_files('lake', 'd', '" + outside + "', schema => 's1')"),
        () -> {
          ParquetFacts f = ParquetFacts.read(stock, outside);
          NewDataFile data =
              new NewDataFile(
                  outside.toString(),
                  false,
                  "parquet",
                  f.records(),
                  f.fileSize(),
                  f.footerSize(),
                  Optional.empty(),
                  f.stats(2, 1),
                  List.of());
          return tx ->
              tx.registerDataFileByName(6, data, List.of(FileField.of("s"), FileField.of("i")));
        });
  }

  // Ids follow from the order of the steps on both sides: schema s1 is 1, table t1 is 2 (its
  // columns 1..7 in pre-order), schema s2 is 3, view v1 is 4 and after its
  // replacement 5, table d is 6.
  private static List<SqlStep> steps() {
    List<SqlStep> s = new ArrayList<>();
    s.add(step("create schema", "CREATE SCHEMA s1", tx -> tx.createSchema("s1")));
    s.add(
        step(
            "create table with nested types",
            "CREATE TABLE s1.t1 (a INTEGER, b VARCHAR, s STRUCT(x INTEGER, y VARCHAR), l DOUBLE[])",
            tx ->
                tx.createTable(
                    1,
                    "t1",
                    List.of(
                        ColumnDef.of("a", "int32"),
                        ColumnDef.of("b", "varchar"),
                        ColumnDef.nested(
                            "s",
                            "struct",
                            ColumnDef.of("x", "int32"),
                            ColumnDef.of("y", "varchar")),
                        ColumnDef.nested("l", "list", ColumnDef.of("element", "float64"))))));
    s.add(step("rename table", "ALTER TABLE s1.t1 RENAME TO t2", tx -> tx.renameTable(2, "t2")));
    s.add(
        step(
            "add column",
            "ALTER TABLE s1.t2 ADD COLUMN c INTEGER",
            tx -> tx.addColumn(2, ColumnDef.of("c", "int32"))));
    s.add(step("drop column", "ALTER TABLE s1.t2 DROP COLUMN c", tx -> tx.dropColumn(2, 8)));
    s.add(
        step(
            "rename column",
            "ALTER TABLE s1.t2 RENAME COLUMN b TO bb",
            tx -> tx.renameColumn(2, 2, "bb")));
    s.add(
        step(
            "change column type",
            "ALTER TABLE s1.t2 ALTER COLUMN a TYPE BIGINT",
            tx -> tx.changeColumnType(2, 1, "int64")));
    s.add(
        step(
            "set default",
            "ALTER TABLE s1.t2 ALTER COLUMN bb SET DEFAULT 'x'",
            tx -> tx.setColumnDefault(2, 2, "x")));
    s.add(
        step(
            "drop default",
            "ALTER TABLE s1.t2 ALTER COLUMN bb DROP DEFAULT",
            tx -> tx.setColumnDefault(2, 2, null)));
    s.add(step("create second schema", "CREATE SCHEMA s2", tx -> tx.createSchema("s2")));
    s.add(
        step(
            "create view",
            "CREATE VIEW s1.v1 AS SELECT 1 AS x",
            tx -> tx.createView(1, "v1", "duckdb", "SELECT 1 AS x")));
    s.add(
        step(
            "replace view",
            // Stock DuckLake replaces a view by dropping it and creating a new one (a new id).
            "CREATE OR REPLACE VIEW s1.v1 AS SELECT 2 AS x",
            tx -> {
              tx.dropView(4);
              tx.createView(1, "v1", "duckdb", "SELECT 2 AS x");
            }));
    s.add(step("rename view", "ALTER VIEW s1.v1 RENAME TO v2", tx -> tx.renameView(5, "v2")));
    s.add(step("drop view", "DROP VIEW s1.v2", tx -> tx.dropView(5)));
    s.add(
        step(
            "set option",
            "CALL lake.set_option('parquet_compression', 'zstd')",
            tx -> tx.setOption(OptionScope.global(), "parquet_compression", "zstd")));
    s.add(
        step(
            "commit info",
            List.of(
                "BEGIN",
                "CREATE TABLE s1.d (i INTEGER, s VARCHAR)",
                "CALL lake.set_commit_message('ann', 'a message', extra_info => '{\"k\":1}')",
                "COMMIT"),
            tx -> {
              tx.createTable(
                  1, "d", List.of(ColumnDef.of("i", "int32"), ColumnDef.of("s", "varchar")));
              tx.setCommitInfo("ann", "a message", "{\"k\":1}");
            }));
    // --- data files on table d (id 6): file ids 0 and 1, then the delete file 2 ---
    s.add(addFile("f1.parquet", "SELECT range::INTEGER AS i, 'r' || range AS s FROM range(100)"));
    s.add(
        step(
            "set not null",
            "ALTER TABLE s1.d ALTER COLUMN i SET NOT NULL",
            tx -> tx.setColumnNullable(6, 1, false)));
    s.add(
        step(
            "drop not null",
            "ALTER TABLE s1.d ALTER COLUMN i DROP NOT NULL",
            tx -> tx.setColumnNullable(6, 1, true)));
    s.add(
        addFile(
            "f2.parquet", "SELECT (100 + range)::INTEGER AS i, 'q' || range AS s FROM range(50)"));
    s.add(
        new SqlStep(
            "register delete file",
            List.of("DELETE FROM s1.d WHERE i < 10"),
            () -> {
              Map<String, Object> row =
                  latest(stock.rows("ducklake_delete_file"), "delete_file_id");
              String path = (String) row.get("path");
              Path onDisk = Path.of(stock.dataPath(), "s1", "d", path);
              ParquetFacts f = ParquetFacts.read(stock, onDisk);
              long target = ((Number) row.get("data_file_id")).longValue();
              NewDeleteFile delete =
                  NewDeleteFile.parquet(target, path, 10, f.fileSize(), f.footerSize());
              return tx -> tx.registerDeleteFile(6, delete);
            }));
    // The mapping takes file id 3 and the file 4, as in stock DuckLake.
    s.add(
        addFileByName(
            "outside.parquet",
            "SELECT 'o' || range AS s, (200 + range)::INTEGER AS i FROM range(20)"));
    // No whole-file delete step: stock DuckLake ends a data file whose rows are all deleted and
    // records deleted_from_table with the table's statistics unchanged; expireDataFile is a
    // compaction's expiry (merge_adjacent, statistics reduced), so it has no stock counterpart.
    // No move step: DuckDB 1.5.5 cannot move a table between schemas (ALTER TABLE ... SET SCHEMA
    // is not implemented), so moveTable has no stock counterpart to compare with.
    s.add(step("drop table", "DROP TABLE s1.t2", tx -> tx.dropTable(2)));
    s.add(step("drop schema", "DROP SCHEMA s2", tx -> tx.dropSchema(3)));
    s.add(step("drop data table", "DROP TABLE s1.d", tx -> tx.dropTable(6)));
    s.add(step("drop last schema", "DROP SCHEMA s1", tx -> tx.dropSchema(1)));
    return s;
  }

  private static Map<String, Object> latest(List<Map<String, Object>> rows, String idColumn) {
    return rows.stream()
        .max(java.util.Comparator.comparingLong(r -> ((Number) r.get(idColumn)).longValue()))
        .orElseThrow();
  }

  /**
   * Stock DuckLake 1.5.5 has no schema comments, so our schema tags (the Rust implementation's)
   * have no stock counterpart to compare with (RFC 0004 §8.2).
   */
  @Test
  void stockDuckLake_refusesSchemaComments() throws Exception {
    try (ReferenceSession session = stock.session()) {
      SQLException e =
          assertThrows(
              SQLException.class,
              () -> session.executeAll(List.of("COMMENT ON SCHEMA main IS 'x'")));
      assertTrue(
          e.getMessage().contains("Adding comments to schemas is not implemented"), e.getMessage());
    }
    assertEquals(
        List.of(),
        stock.rows("ducklake_tag").stream()
            .filter(r -> Long.valueOf(0).equals(((Number) r.get("object_id")).longValue()))
            .toList());
  }

  /**
   * Every step, and two snapshot expiries on both sides: after the delete file is registered,
   * snapshots 2 to 8 (the first table's creation, its columns' changes and the views' first
   * versions); after the last drop, every snapshot but the head, which leaves only the records of
   * the drops that the head still shows and schedules every file of the dropped tables.
   */
  @TestFactory
  Stream<DynamicTest> everyStep_leavesTheSameRows() {
    List<SqlStep> all = steps();
    int mid = 0;
    while (!all.get(mid).name().equals("register delete file")) {
      mid++;
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (SqlStep st : all.subList(0, mid + 1)) {
      tests.add(DynamicTest.dynamicTest(st.name(), () -> run(st)));
    }
    tests.add(
        DynamicTest.dynamicTest(
            "expire snapshots 2 to 8",
            () ->
                expire(
                    "versions => [2, 3, 4, 5, 6, 7, 8]",
                    SnapshotExpiry.ids(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L)))));
    for (SqlStep st : all.subList(mid + 1, all.size())) {
      tests.add(DynamicTest.dynamicTest(st.name(), () -> run(st)));
    }
    tests.add(
        DynamicTest.dynamicTest(
            "expire all but the head",
            () -> expire("older_than => now()", SnapshotExpiry.retainLast(1))));
    tests.add(DynamicTest.dynamicTest("clean up every scheduled file", () -> cleanup()));
    return tests.stream();
  }

  /**
   * Stock DuckLake's {@code ducklake_cleanup_old_files(cleanup_all => true)} on its data path, and
   * ours on a copy of it taken just before: the same objects are deleted, and the rows are equal
   * (both schedules empty).
   */
  private static void cleanup() throws Exception {
    Path stockData = Path.of(stock.dataPath());
    Path copy = dir.resolve("our-data");
    copyTree(stockData, copy);
    try (ReferenceSession session = stock.session()) {
      session.executeAll(
          List.of("CALL ducklake_cleanup_old_files('" + stock.alias() + "', cleanup_all => true)"));
    }
    try (ObjectStoreLakeFiles files =
        ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(copy), "")) {
      CleanupResult r = catalog.cleanupOldFiles(files, FileCleanup.all());
      assertTrue(r.deleted().size() > 0, "the expiries scheduled files");
    }
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()));
    assertEquals(filesUnder(stockData), filesUnder(copy), "the same objects are left");
  }

  private static void copyTree(Path from, Path to) throws java.io.IOException {
    try (Stream<Path> walk = java.nio.file.Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (java.nio.file.Files.isDirectory(p)) {
          java.nio.file.Files.createDirectories(target);
        } else {
          java.nio.file.Files.copy(p, target);
        }
      }
    }
  }

  private static java.util.SortedSet<String> filesUnder(Path root) throws java.io.IOException {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    try (Stream<Path> walk = java.nio.file.Files.walk(root)) {
      walk.filter(java.nio.file.Files::isRegularFile)
          .forEach(p -> out.add(root.relativize(p).toString()));
    }
    return out;
  }

  /** Runs stock DuckLake's expiry with {@code arguments} and ours with {@code expiry}. */
  private static void expire(String arguments, SnapshotExpiry expiry) throws Exception {
    try (ReferenceSession session = stock.session()) {
      session.executeAll(
          List.of("CALL ducklake_expire_snapshots('" + stock.alias() + "', " + arguments + ")"));
    }
    long head = catalog.head().snapshotId();
    catalog.expireSnapshots(expiry);
    assertEquals(head, catalog.head().snapshotId(), "an expiry mints no snapshot");
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), arguments);
  }

  private static void run(SqlStep st) throws Exception {
    DuckLakeRowSet ours = st.runOn(lakes);
    assertTrue(ours.rows("ducklake_snapshot").size() > 1, "the steps have made snapshots");
    assertEquals(List.of(), RowComparison.differences(stock, ours), st.name());
  }
}
