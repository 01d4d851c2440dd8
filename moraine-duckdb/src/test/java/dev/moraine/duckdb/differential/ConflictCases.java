package dev.moraine.duckdb.differential;

import java.util.ArrayList;
import java.util.List;

/**
 * Pairs of the conflict matrix, each as two overlapping transactions. The expected outcome of each
 * is what stock DuckLake 1.5.5 does (see docs/duckdb-reference.md where that differs from the
 * reference notes).
 */
final class ConflictCases {

  private ConflictCases() {}

  /**
   * Inlining off: one table with two data files, rows 0..99 in the first and 100..199 in the
   * second.
   */
  private static final List<String> TWO_FILES =
      List.of(
          "CREATE TABLE t (i INTEGER, s VARCHAR)",
          "INSERT INTO t SELECT range, 'a' FROM range(0, 100)",
          "INSERT INTO t SELECT range, 'b' FROM range(100, 200)");

  /** Inlining on (limit 10): one table whose three rows are inlined. */
  private static final List<String> INLINED =
      List.of(
          "CREATE TABLE t (i INTEGER, s VARCHAR)",
          "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");

  /** Inlining on (limit 10): one table with one data file of 100 rows plus three inlined rows. */
  private static final List<String> FILE_AND_INLINED =
      List.of(
          "CREATE TABLE t (i INTEGER, s VARCHAR)",
          "INSERT INTO t SELECT range, 'a' FROM range(0, 100)",
          "INSERT INTO t SELECT range, 'b' FROM range(100, 200)",
          "INSERT INTO t VALUES (1000, 'x'), (1001, 'y'), (1002, 'z')");

  /** Inlining off: two data files, the first with a delete file, ready for a rewrite. */
  private static final List<String> TWO_FILES_WITH_DELETES =
      List.of(
          "CREATE TABLE t (i INTEGER, s VARCHAR)",
          "INSERT INTO t SELECT range, 'a' FROM range(0, 100)",
          "INSERT INTO t SELECT range, 'b' FROM range(100, 200)",
          "DELETE FROM t WHERE i < 50");

  private static final String REWRITE =
      "CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0.0)";

  private static final String INSERT_FILE = "INSERT INTO t SELECT range, 'n' FROM range(500, 600)";
  private static final String INSERT_INLINED = "INSERT INTO t VALUES (900, 'n')";
  private static final String MERGE = "CALL ducklake_merge_adjacent_files('lake', 't')";
  private static final String FLUSH = "CALL ducklake_flush_inlined_data('lake', table_name => 't')";

  static List<ConflictCase> all() {
    List<ConflictCase> cases = new ArrayList<>();
    // --- data against data, inlining off ---
    cases.add(files("insert/insert", List.of(INSERT_FILE), List.of(INSERT_FILE), false));
    cases.add(
        files(
            "insert then delete",
            List.of(INSERT_FILE),
            List.of("DELETE FROM t WHERE i < 50"),
            true));
    cases.add(
        files(
            "delete then insert",
            List.of("DELETE FROM t WHERE i < 50"),
            List.of(INSERT_FILE),
            true));
    cases.add(
        files(
            "delete/delete same file",
            List.of("DELETE FROM t WHERE i < 20"),
            List.of("DELETE FROM t WHERE i BETWEEN 40 AND 60"),
            true));
    cases.add(
        files(
            "delete/delete different files",
            List.of("DELETE FROM t WHERE i < 20"),
            List.of("DELETE FROM t WHERE i >= 150"),
            false));
    cases.add(
        files(
            "delete whole file/delete same file",
            List.of("DELETE FROM t WHERE i < 100"),
            List.of("DELETE FROM t WHERE i = 5"),
            true));
    cases.add(
        files(
            "update/update different files",
            List.of("UPDATE t SET s = 'u' WHERE i = 1"),
            List.of("UPDATE t SET s = 'v' WHERE i = 101"),
            true));
    cases.add(
        files("merge then delete", List.of(MERGE), List.of("DELETE FROM t WHERE i < 50"), true));
    cases.add(
        files("delete then merge", List.of("DELETE FROM t WHERE i < 50"), List.of(MERGE), true));
    cases.add(files("merge then insert", List.of(MERGE), List.of(INSERT_FILE), false));
    cases.add(files("insert then merge", List.of(INSERT_FILE), List.of(MERGE), false));
    cases.add(files("merge/merge", List.of(MERGE), List.of(MERGE), true));
    cases.add(
        new ConflictCase(
            "rewrite then delete",
            0,
            TWO_FILES_WITH_DELETES,
            List.of(REWRITE),
            List.of("DELETE FROM t WHERE i >= 150"),
            true));
    cases.add(
        new ConflictCase(
            "delete then rewrite",
            0,
            TWO_FILES_WITH_DELETES,
            List.of("DELETE FROM t WHERE i >= 150"),
            List.of(REWRITE),
            true));
    cases.add(
        new ConflictCase(
            "rewrite then insert",
            0,
            TWO_FILES_WITH_DELETES,
            List.of(REWRITE),
            List.of(INSERT_FILE),
            false));
    cases.add(
        new ConflictCase(
            "rewrite then alter",
            0,
            TWO_FILES_WITH_DELETES,
            List.of(REWRITE),
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            false));
    // --- inlined data ---
    cases.add(
        inlined(
            "inlined insert/inlined insert",
            List.of(INSERT_INLINED),
            List.of(INSERT_INLINED),
            false));
    cases.add(
        inlined(
            "inlined delete/inlined delete",
            List.of("DELETE FROM t WHERE i = 1"),
            List.of("DELETE FROM t WHERE i = 2"),
            true));
    cases.add(
        inlined(
            "inlined insert then inlined delete",
            List.of(INSERT_INLINED),
            List.of("DELETE FROM t WHERE i = 2"),
            true));
    cases.add(
        inlined(
            "inlined delete then inlined insert",
            List.of("DELETE FROM t WHERE i = 2"),
            List.of(INSERT_INLINED),
            true));
    cases.add(
        inlined(
            "flush then inlined delete",
            List.of(FLUSH),
            List.of("DELETE FROM t WHERE i = 2"),
            true));
    cases.add(
        inlined(
            "inlined delete then flush",
            List.of("DELETE FROM t WHERE i = 2"),
            List.of(FLUSH),
            true));
    cases.add(inlined("flush then inlined insert", List.of(FLUSH), List.of(INSERT_INLINED), false));
    cases.add(inlined("flush/flush", List.of(FLUSH), List.of(FLUSH), true).late());
    cases.add(
        new ConflictCase(
            "small deletes from different files (inlined deletes)",
            10,
            FILE_AND_INLINED,
            List.of("DELETE FROM t WHERE i = 1"),
            List.of("DELETE FROM t WHERE i = 101"),
            true));
    cases.add(
        new ConflictCase(
            "file insert then inlined insert",
            10,
            FILE_AND_INLINED,
            List.of(INSERT_FILE),
            List.of(INSERT_INLINED),
            false));
    // --- schema changes ---
    cases.add(
        files(
            "alter/alter",
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            List.of("ALTER TABLE t ADD COLUMN y INTEGER"),
            true));
    cases.add(
        files(
            "alter then insert",
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            List.of(INSERT_FILE),
            true));
    cases.add(
        files(
            "insert then alter",
            List.of(INSERT_FILE),
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            false));
    cases.add(
        files(
            "alter then delete",
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            List.of("DELETE FROM t WHERE i < 50"),
            true));
    cases.add(
        files(
            "comment/comment",
            List.of("COMMENT ON TABLE t IS 'one'"),
            List.of("COMMENT ON TABLE t IS 'two'"),
            true));
    cases.add(files("drop/drop table", List.of("DROP TABLE t"), List.of("DROP TABLE t"), true));
    cases.add(files("drop then insert", List.of("DROP TABLE t"), List.of(INSERT_FILE), true));
    cases.add(files("insert then drop", List.of(INSERT_FILE), List.of("DROP TABLE t"), false));
    cases.add(
        files(
            "drop then alter",
            List.of("DROP TABLE t"),
            List.of("ALTER TABLE t ADD COLUMN x INTEGER"),
            true));
    cases.add(
        files(
            "create/create same name",
            List.of("CREATE TABLE n (i INTEGER)"),
            List.of("CREATE TABLE n (j VARCHAR)"),
            true));
    cases.add(
        files(
            "create/create same name other case",
            List.of("CREATE TABLE n (i INTEGER)"),
            List.of("CREATE TABLE \"N\" (j VARCHAR)"),
            true));
    cases.add(
        files(
            "create/create different names",
            List.of("CREATE TABLE n1 (i INTEGER)"),
            List.of("CREATE TABLE n2 (i INTEGER)"),
            false));
    cases.add(
        files(
            "create table/create view same name",
            List.of("CREATE TABLE n (i INTEGER)"),
            List.of("CREATE VIEW n AS SELECT 1 AS i"),
            true));
    cases.add(
        files(
            "rename/create same name",
            List.of("ALTER TABLE t RENAME TO n"),
            List.of("CREATE TABLE n (i INTEGER)"),
            true));
    cases.add(
        files(
            "create schema/create schema same name",
            List.of("CREATE SCHEMA s"),
            List.of("CREATE SCHEMA s"),
            true));
    cases.add(
        files(
            "create schema/create schema different names",
            List.of("CREATE SCHEMA s1"),
            List.of("CREATE SCHEMA s2"),
            false));
    cases.add(
        withSchema(
            "drop schema then create table",
            List.of("DROP SCHEMA s"),
            List.of("CREATE TABLE s.x (i INTEGER)"),
            true));
    cases.add(
        withSchema(
            "create table then drop schema",
            List.of("CREATE TABLE s.x (i INTEGER)"),
            List.of("DROP SCHEMA s"),
            true));
    cases.add(
        withSchema(
            "create macro then drop schema",
            List.of("CREATE MACRO s.m(a) AS a + 1"),
            List.of("DROP SCHEMA s"),
            false));
    cases.add(
        withSchema(
            "drop schema then create macro",
            List.of("DROP SCHEMA s"),
            List.of("CREATE MACRO s.m(a) AS a + 1"),
            true));
    cases.add(
        withSchema(
            "drop schema/drop schema", List.of("DROP SCHEMA s"), List.of("DROP SCHEMA s"), true));
    cases.add(
        withSchema(
            "drop schema then create schema",
            List.of("DROP SCHEMA s"),
            List.of("CREATE SCHEMA s2"),
            false));
    cases.add(
        new ConflictCase(
            "create macro/create macro same name",
            0,
            List.of(),
            List.of("CREATE MACRO m(a) AS a + 1"),
            List.of("CREATE MACRO m(a) AS a + 2"),
            true));
    cases.add(
        new ConflictCase(
            "scalar macro/table macro same name",
            0,
            List.of(),
            List.of("CREATE MACRO m(a) AS a + 1"),
            List.of("CREATE MACRO m() AS TABLE SELECT 1 AS a"),
            false));
    cases.add(
        new ConflictCase(
            "drop macro/drop macro",
            0,
            List.of("CREATE MACRO m(a) AS a + 1"),
            List.of("DROP MACRO m"),
            List.of("DROP MACRO m"),
            true));
    cases.add(
        new ConflictCase(
            "drop view/drop view",
            0,
            List.of("CREATE VIEW v AS SELECT 1 AS i"),
            List.of("DROP VIEW v"),
            List.of("DROP VIEW v"),
            true));
    cases.add(
        new ConflictCase(
            "comment view/comment view",
            0,
            List.of("CREATE VIEW v AS SELECT 1 AS i"),
            List.of("COMMENT ON VIEW v IS 'one'"),
            List.of("COMMENT ON VIEW v IS 'two'"),
            true));
    cases.add(
        new ConflictCase(
            "drop view then comment view",
            0,
            List.of("CREATE VIEW v AS SELECT 1 AS i"),
            List.of("DROP VIEW v"),
            List.of("COMMENT ON VIEW v IS 'two'"),
            false));
    // --- new tables: both drafts number their new table alike (next_catalog_id at the premise) ---
    cases.add(
        files(
            "create table as/create table as, then delete",
            List.of("CREATE TABLE b AS SELECT range AS i FROM range(100)"),
            List.of(
                "CREATE TABLE a AS SELECT range AS i FROM range(100)",
                "DELETE FROM a WHERE i < 10"),
            false));
    cases.add(
        files(
            "create and alter/create and alter",
            List.of("CREATE TABLE b (i INTEGER)", "ALTER TABLE b ADD COLUMN j INTEGER"),
            List.of("CREATE TABLE a (i INTEGER)", "ALTER TABLE a ADD COLUMN j INTEGER"),
            false));
    cases.add(
        files(
            "create table as/create table as, same name",
            List.of("CREATE TABLE a AS SELECT range AS i FROM range(100)"),
            List.of("CREATE TABLE a AS SELECT range AS i FROM range(100)"),
            true));
    // --- options ---
    cases.add(
        files(
            "set_option then insert",
            List.of("CALL lake.set_option('parquet_compression', 'zstd')"),
            List.of(INSERT_FILE),
            false));
    return cases;
  }

  private static ConflictCase files(
      String name, List<String> first, List<String> second, boolean conflicts) {
    return new ConflictCase(name, 0, TWO_FILES, first, second, conflicts);
  }

  private static ConflictCase inlined(
      String name, List<String> first, List<String> second, boolean conflicts) {
    return new ConflictCase(name, 10, INLINED, first, second, conflicts);
  }

  private static ConflictCase withSchema(
      String name, List<String> first, List<String> second, boolean conflicts) {
    return new ConflictCase(name, 0, List.of("CREATE SCHEMA s"), first, second, conflicts);
  }
}
