package dev.moraine.duckdb.differential;

import static dev.moraine.ducklake.ops.DuckLakeOperation.ADD_COLUMN;
import static dev.moraine.ducklake.ops.DuckLakeOperation.ADD_DATA_FILES;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CHANGE_COLUMN_TYPE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CLEANUP_OLD_FILES;
import static dev.moraine.ducklake.ops.DuckLakeOperation.COMMENT_ON_COLUMN;
import static dev.moraine.ducklake.ops.DuckLakeOperation.COMMENT_ON_TABLE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.COMMENT_ON_VIEW;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CREATE_SCALAR_MACRO;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CREATE_SCHEMA;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CREATE_TABLE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CREATE_TABLE_MACRO;
import static dev.moraine.ducklake.ops.DuckLakeOperation.CREATE_VIEW;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DELETE_FILE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DELETE_ORPHANED_FILES;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DELETE_WHOLE_FILE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_COLUMN;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_DEFAULT;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_MACRO;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_NOT_NULL;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_SCHEMA;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_TABLE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_TABLE_MACRO;
import static dev.moraine.ducklake.ops.DuckLakeOperation.DROP_VIEW;
import static dev.moraine.ducklake.ops.DuckLakeOperation.EXPIRE_SNAPSHOTS;
import static dev.moraine.ducklake.ops.DuckLakeOperation.FLUSH_INLINED_DATA;
import static dev.moraine.ducklake.ops.DuckLakeOperation.INLINED_DELETE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.INLINED_FILE_DELETE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.INLINED_INSERT;
import static dev.moraine.ducklake.ops.DuckLakeOperation.INLINED_INSERT_NEW_INLINED_TABLE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.INSERT_FILE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.MERGE_ADJACENT_FILES;
import static dev.moraine.ducklake.ops.DuckLakeOperation.RENAME_COLUMN;
import static dev.moraine.ducklake.ops.DuckLakeOperation.RENAME_TABLE;
import static dev.moraine.ducklake.ops.DuckLakeOperation.RENAME_VIEW;
import static dev.moraine.ducklake.ops.DuckLakeOperation.RESET_PARTITIONED_BY;
import static dev.moraine.ducklake.ops.DuckLakeOperation.RESET_SORTED_BY;
import static dev.moraine.ducklake.ops.DuckLakeOperation.REWRITE_DELETES;
import static dev.moraine.ducklake.ops.DuckLakeOperation.SET_DEFAULT;
import static dev.moraine.ducklake.ops.DuckLakeOperation.SET_NOT_NULL;
import static dev.moraine.ducklake.ops.DuckLakeOperation.SET_OPTION;
import static dev.moraine.ducklake.ops.DuckLakeOperation.SET_PARTITIONED_BY;
import static dev.moraine.ducklake.ops.DuckLakeOperation.SET_SORTED_BY;
import static dev.moraine.ducklake.ops.DuckLakeOperation.UPDATE;

import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A script of SQL that makes every kind of change DuckLake records, one commit per step, run
 * against one lake with DuckLake's default inlining limit (10 rows) unless a step changes it.
 *
 * <p>Ids in the expected texts follow from the order of the steps: schema s1 is 1, table t1/t2 is
 * 2, the partition ids 3 and 4 (RESET PARTITIONED BY also opens a partition_info row, with no
 * columns), the sort id 5, view v1/v2 6, the macros 7 and 8, table d 9, table e 10, table y 11,
 * schema s2 12 and, within one commit, view s2.w 13 and table s2.a 14.
 */
final class ChangeKindScript {

  private ChangeKindScript() {}

  /**
   * The steps.
   *
   * @param scratch a directory outside the lake, for a Parquet file DuckLake did not write
   */
  static List<ScriptStep> steps(Path scratch) {
    String outside = scratch.resolve("added.parquet").toString().replace("'", "''");
    List<ScriptStep> s = new ArrayList<>();
    // --- schemas, tables, columns ---
    s.add(step("create schema", "CREATE SCHEMA s1", "created_schema:\"s1\"", CREATE_SCHEMA));
    s.add(
        step(
            "create table",
            "CREATE TABLE s1.t1 (a INTEGER, b VARCHAR)",
            "created_table:\"s1\".\"t1\"",
            CREATE_TABLE));
    s.add(
        step(
            "rename table",
            "ALTER TABLE s1.t1 RENAME TO t2",
            "created_table:\"s1\".\"t2\"",
            RENAME_TABLE));
    s.add(
        step(
            "add column", "ALTER TABLE s1.t2 ADD COLUMN c INTEGER", "altered_table:2", ADD_COLUMN));
    s.add(step("drop column", "ALTER TABLE s1.t2 DROP COLUMN c", "altered_table:2", DROP_COLUMN));
    s.add(
        step(
            "rename column",
            "ALTER TABLE s1.t2 RENAME COLUMN b TO bb",
            "altered_table:2",
            RENAME_COLUMN));
    s.add(
        step(
            "change column type",
            "ALTER TABLE s1.t2 ALTER COLUMN a TYPE BIGINT",
            "altered_table:2",
            CHANGE_COLUMN_TYPE));
    s.add(
        step(
            "set default",
            "ALTER TABLE s1.t2 ALTER COLUMN bb SET DEFAULT 'x'",
            "altered_table:2",
            SET_DEFAULT));
    s.add(
        step(
            "drop default",
            "ALTER TABLE s1.t2 ALTER COLUMN bb DROP DEFAULT",
            "altered_table:2",
            DROP_DEFAULT));
    s.add(
        step(
            "set partition key",
            "ALTER TABLE s1.t2 SET PARTITIONED BY (a)",
            "altered_table:2",
            SET_PARTITIONED_BY));
    s.add(
        step(
            "reset partition key",
            "ALTER TABLE s1.t2 RESET PARTITIONED BY",
            "altered_table:2",
            RESET_PARTITIONED_BY));
    s.add(
        step(
            "set sort key",
            "ALTER TABLE s1.t2 SET SORTED BY (a DESC NULLS FIRST)",
            "altered_table:2",
            SET_SORTED_BY));
    s.add(
        step(
            "reset sort key",
            "ALTER TABLE s1.t2 RESET SORTED BY",
            "altered_table:2",
            RESET_SORTED_BY));
    s.add(
        step(
            "comment on table",
            "COMMENT ON TABLE s1.t2 IS 'a table'",
            "altered_table:2",
            COMMENT_ON_TABLE));
    s.add(
        step(
            "comment on column",
            "COMMENT ON COLUMN s1.t2.a IS 'a column'",
            "altered_table:2",
            COMMENT_ON_COLUMN));
    // --- views and macros ---
    s.add(
        step(
            "create view",
            "CREATE VIEW s1.v1 AS SELECT 1 AS x",
            "created_view:\"s1\".\"v1\"",
            CREATE_VIEW));
    s.add(
        step(
            "comment on view",
            "COMMENT ON VIEW s1.v1 IS 'a view'",
            "altered_view:6",
            COMMENT_ON_VIEW));
    s.add(
        step(
            "rename view",
            "ALTER VIEW s1.v1 RENAME TO v2",
            "created_view:\"s1\".\"v2\"",
            RENAME_VIEW));
    s.add(step("drop view", "DROP VIEW s1.v2", "dropped_view:6", DROP_VIEW));
    s.add(
        step(
            "create scalar macro",
            "CREATE MACRO s1.m(x) AS x + 1",
            "created_scalar_macro:\"s1\".\"m\"",
            CREATE_SCALAR_MACRO));
    s.add(
        step(
            "create table macro",
            "CREATE MACRO s1.tm() AS TABLE SELECT 1 AS y",
            "created_table_macro:\"s1\".\"tm\"",
            CREATE_TABLE_MACRO));
    s.add(step("drop scalar macro", "DROP MACRO s1.m", "dropped_scalar_macro:7", DROP_MACRO));
    s.add(
        step(
            "drop table macro",
            "DROP MACRO TABLE s1.tm",
            "dropped_table_macro:8",
            DROP_TABLE_MACRO));
    // --- data, inlining on (limit 10) ---
    s.add(
        step(
            "create data table",
            "CREATE TABLE s1.d (i INTEGER, s VARCHAR)",
            "created_table:\"s1\".\"d\"",
            CREATE_TABLE));
    s.add(
        step(
            "insert into a file",
            "INSERT INTO s1.d SELECT range, 'r' || range FROM range(100)",
            "inserted_into_table:9",
            INSERT_FILE));
    s.add(
        step(
            "inlined insert",
            "INSERT INTO s1.d VALUES (1000, 'a'), (1001, 'b'), (1002, 'c')",
            "inlined_insert:9",
            INLINED_INSERT));
    s.add(
        step(
            "set not null",
            "ALTER TABLE s1.d ALTER COLUMN i SET NOT NULL",
            "altered_table:9",
            SET_NOT_NULL));
    s.add(
        step(
            "drop not null",
            "ALTER TABLE s1.d ALTER COLUMN i DROP NOT NULL",
            "altered_table:9",
            DROP_NOT_NULL));
    s.add(
        step(
            "delete into a delete file",
            "DELETE FROM s1.d WHERE i < 50",
            "deleted_from_table:9",
            DELETE_FILE));
    s.add(
        step(
            "small delete from a file, inlined",
            "DELETE FROM s1.d WHERE i = 60",
            "inlined_delete:9",
            INLINED_FILE_DELETE));
    s.add(
        step(
            "delete of an inlined row",
            "DELETE FROM s1.d WHERE i = 1000",
            "inlined_delete:9",
            INLINED_DELETE));
    s.add(
        step(
            "update of an inlined row",
            "UPDATE s1.d SET s = 'u' WHERE i = 1001",
            "inlined_insert:9,inlined_delete:9",
            INLINED_INSERT,
            INLINED_DELETE));
    s.add(
        step(
            "second file",
            "INSERT INTO s1.d SELECT range + 200, 'r' FROM range(100)",
            "inserted_into_table:9",
            INSERT_FILE));
    s.add(
        step(
            "third file",
            "INSERT INTO s1.d SELECT range + 400, 'r' FROM range(100)",
            "inserted_into_table:9",
            INSERT_FILE));
    s.add(
        step(
            "merge adjacent files",
            "CALL ducklake_merge_adjacent_files('lake', 'd', schema => 's1')",
            "merge_adjacent:9",
            MERGE_ADJACENT_FILES));
    // The pending inlined file deletion (i = 60) is written out as a delete file by the flush.
    s.add(
        step(
            "flush inlined data with an inlined file deletion",
            "CALL ducklake_flush_inlined_data('lake', schema_name => 's1', table_name => 'd')",
            "deleted_from_table:9,inline_flush:9",
            FLUSH_INLINED_DATA,
            DELETE_FILE));
    s.add(
        step(
            "rewrite files with deletes",
            "CALL ducklake_rewrite_data_files('lake', 'd', schema => 's1', delete_threshold => 0.0)",
            "rewrite_delete:9",
            REWRITE_DELETES));
    s.add(
        step(
            "set option", "CALL lake.set_option('parquet_compression', 'zstd')", null, SET_OPTION));
    s.add(
        new ScriptStep(
            "create, insert into a file and inline in one transaction",
            List.of(
                "CREATE TABLE s1.e (k INTEGER)",
                "INSERT INTO s1.e SELECT range FROM range(50)",
                "INSERT INTO s1.d VALUES (7, 'seven')"),
            "created_table:\"s1\".\"e\",inserted_into_table:10,inlined_insert:9",
            List.of(CREATE_TABLE, INSERT_FILE, INLINED_INSERT)));
    // --- data, inlining off ---
    s.add(
        step(
            "turn inlining off",
            "CALL lake.set_option('data_inlining_row_limit', '0')",
            null,
            SET_OPTION));
    s.add(
        step(
            "create table without inlining",
            "CREATE TABLE s1.y (i INTEGER)",
            "created_table:\"s1\".\"y\"",
            CREATE_TABLE));
    s.add(
        step(
            "small insert into a file",
            "INSERT INTO s1.y SELECT range FROM range(20)",
            "inserted_into_table:11",
            INSERT_FILE));
    s.add(
        step(
            "another small file",
            "INSERT INTO s1.y SELECT range FROM range(20, 40)",
            "inserted_into_table:11",
            INSERT_FILE));
    s.add(
        step(
            "delete every row of a file",
            "DELETE FROM s1.y WHERE i < 20",
            "deleted_from_table:11",
            DELETE_WHOLE_FILE));
    s.add(
        step(
            "update through files",
            "UPDATE s1.y SET i = i + 100 WHERE i = 30",
            "inserted_into_table:11,deleted_from_table:11",
            UPDATE));
    s.add(
        step(
            "turn inlining on",
            "CALL lake.set_option('data_inlining_row_limit', '10')",
            null,
            SET_OPTION));
    s.add(
        step(
            "first inlined insert into a table without an inlined-data table",
            "INSERT INTO s1.y VALUES (1)",
            "inlined_insert:11",
            INLINED_INSERT_NEW_INLINED_TABLE));
    s.add(
        step(
            "second inlined insert",
            "INSERT INTO s1.y VALUES (2)",
            "inlined_insert:11",
            INLINED_INSERT));
    s.add(
        step(
            "flush inlined data",
            "CALL ducklake_flush_inlined_data('lake', schema_name => 's1', table_name => 'y')",
            "inline_flush:11",
            FLUSH_INLINED_DATA));
    // --- a file written outside DuckLake, and the maintenance calls ---
    s.add(
        new ScriptStep(
            "register a Parquet file DuckLake did not write",
            List.of(
                "COPY (SELECT 5000 + range::INTEGER AS i, 'added' AS s FROM range(20)) TO '"
                    + outside
                    + "' (FORMAT parquet)",
                "CALL ducklake_add_data_files('lake', 'd', '" + outside + "', schema => 's1')"),
            "inserted_into_table:9",
            List.of(ADD_DATA_FILES)));
    s.add(
        step(
            "expire a snapshot",
            "CALL ducklake_expire_snapshots('lake', versions => [1])",
            null,
            EXPIRE_SNAPSHOTS));
    s.add(
        step(
            "clean up the files of expired snapshots",
            "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)",
            null,
            CLEANUP_OLD_FILES));
    s.add(
        step(
            "delete orphaned files",
            "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)",
            null,
            DELETE_ORPHANED_FILES));
    // --- several objects in one commit ---
    s.add(
        new ScriptStep(
            "create schema, table and view in one transaction",
            List.of(
                "CREATE SCHEMA s2",
                "CREATE TABLE s2.a (i INTEGER)",
                "CREATE VIEW s2.w AS SELECT 2 AS j"),
            "created_schema:\"s2\",created_table:\"s2\".\"a\",created_view:\"s2\".\"w\"",
            List.of(CREATE_SCHEMA, CREATE_TABLE, CREATE_VIEW)));
    s.add(
        new ScriptStep(
            "drop view, table and schema in one transaction",
            List.of("DROP VIEW s2.w", "DROP TABLE s2.a", "DROP SCHEMA s2"),
            // DuckLake numbered the view (13) before the table (14) although the table was created
            // first.
            "dropped_schema:12,dropped_table:14,dropped_view:13",
            List.of(DROP_VIEW, DROP_TABLE, DROP_SCHEMA)));
    // --- tear down ---
    s.add(
        new ScriptStep(
            "drop tables in one transaction",
            List.of("DROP TABLE s1.e", "DROP TABLE s1.d", "DROP TABLE s1.y", "DROP TABLE s1.t2"),
            "dropped_table:2,dropped_table:9,dropped_table:10,dropped_table:11",
            List.of(DROP_TABLE, DROP_TABLE, DROP_TABLE, DROP_TABLE)));
    s.add(step("drop schema", "DROP SCHEMA s1", "dropped_schema:1", DROP_SCHEMA));
    return s;
  }

  private static ScriptStep step(
      String label, String sql, String changesMade, DuckLakeOperation... operations) {
    return new ScriptStep(label, List.of(sql), changesMade, List.of(operations));
  }
}
