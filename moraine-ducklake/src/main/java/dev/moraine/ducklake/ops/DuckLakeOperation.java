package dev.moraine.ducklake.ops;

import static dev.moraine.ducklake.changes.ChangeKind.ALTERED_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.ALTERED_VIEW;
import static dev.moraine.ducklake.changes.ChangeKind.CREATED_SCALAR_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.CREATED_SCHEMA;
import static dev.moraine.ducklake.changes.ChangeKind.CREATED_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.CREATED_TABLE_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.CREATED_VIEW;
import static dev.moraine.ducklake.changes.ChangeKind.DELETED_FROM_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_SCALAR_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_SCHEMA;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_TABLE_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_VIEW;
import static dev.moraine.ducklake.changes.ChangeKind.INLINE_FLUSH;
import static dev.moraine.ducklake.changes.ChangeKind.INSERTED_INTO_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.MERGE_ADJACENT;
import static dev.moraine.ducklake.changes.ChangeKind.REWRITE_DELETE;
import static dev.moraine.ducklake.ops.Effect.ADVANCES_NEXT_CATALOG_ID;
import static dev.moraine.ducklake.ops.Effect.ADVANCES_NEXT_FILE_ID;
import static dev.moraine.ducklake.ops.Effect.BUMPS_SCHEMA_VERSION;
import static dev.moraine.ducklake.ops.Effect.EXCLUSIVE_COMPACTION;
import static dev.moraine.ducklake.ops.Effect.EXTRA_SCHEMA_VERSION_PER_TABLE;
import static dev.moraine.ducklake.ops.Effect.OUTSIDE_SNAPSHOT_PROTOCOL;
import static dev.moraine.ducklake.ops.Effect.WRITES_SCHEMA_VERSIONS_ROW;

import dev.moraine.ducklake.changes.ChangeKind;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The user-level operations of DuckLake 1.0 and what each does to the catalog counters and to
 * {@code changes_made}, as DuckLake 1.5 ("variegata") does it.
 *
 * <p>All predictions live in the constant declarations below, one line per operation, so that a
 * disagreement found against a real DuckDB + DuckLake can be fixed in one place. Each constant
 * lists its {@link Effect}s and then the {@link ChangeKind}s it contributes (for one affected
 * object; a commit touching several tables emits one entry per table).
 *
 * <p>Notes that hold across rows:
 *
 * <ul>
 *   <li>Any create, drop, rename or ALTER of a schema, table, view or macro bumps {@code
 *       schema_version} by one per commit, however many there are (comments and sort keys
 *       included).
 *   <li>{@code ducklake_schema_versions} rows are written for created and renamed tables and for
 *       column-, null-, default- and partition-level changes, not for comments or sort keys, and
 *       never for views or macros.
 *   <li>A rename emits only {@code created_table}/{@code created_view} under the new name; the id
 *       is kept and no {@code dropped_*} entry is written.
 *   <li>A table created while inlining is enabled gets its inlined-data table in the same commit,
 *       so an inlined insert into it is {@link #INLINED_INSERT}, not {@link
 *       #INLINED_INSERT_NEW_INLINED_TABLE}.
 * </ul>
 */
public enum DuckLakeOperation {
  // ---- schemas -------------------------------------------------------------------------------
  /** CREATE SCHEMA. */
  CREATE_SCHEMA(does(BUMPS_SCHEMA_VERSION, ADVANCES_NEXT_CATALOG_ID), emits(CREATED_SCHEMA)),
  /** DROP SCHEMA (of an empty schema). */
  DROP_SCHEMA(does(BUMPS_SCHEMA_VERSION), emits(DROPPED_SCHEMA)),

  // ---- tables --------------------------------------------------------------------------------
  /** CREATE TABLE (table id from next_catalog_id; column ids are per table and do not use it). */
  CREATE_TABLE(
      does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW, ADVANCES_NEXT_CATALOG_ID),
      emits(CREATED_TABLE)),
  /** ALTER TABLE ... RENAME TO: the id is kept, the new name is reported as created. */
  RENAME_TABLE(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(CREATED_TABLE)),
  /** DROP TABLE. */
  DROP_TABLE(does(BUMPS_SCHEMA_VERSION), emits(DROPPED_TABLE)),
  /** ALTER TABLE ... ADD COLUMN. */
  ADD_COLUMN(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... DROP COLUMN. */
  DROP_COLUMN(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... RENAME COLUMN. */
  RENAME_COLUMN(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... ALTER COLUMN ... TYPE. */
  CHANGE_COLUMN_TYPE(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... ALTER COLUMN ... SET DEFAULT. */
  SET_DEFAULT(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... ALTER COLUMN ... DROP DEFAULT. */
  DROP_DEFAULT(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... ALTER COLUMN ... SET NOT NULL. */
  SET_NOT_NULL(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... ALTER COLUMN ... DROP NOT NULL. */
  DROP_NOT_NULL(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... SET PARTITIONED BY (...): a new partition_id from next_catalog_id. */
  SET_PARTITIONED_BY(
      does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW, ADVANCES_NEXT_CATALOG_ID),
      emits(ALTERED_TABLE)),
  /**
   * ALTER TABLE ... RESET PARTITIONED BY: opens a new, empty partitioning (a partition_info row
   * without partition columns), so it takes a partition_id from next_catalog_id like SET does.
   */
  RESET_PARTITIONED_BY(
      does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW, ADVANCES_NEXT_CATALOG_ID),
      emits(ALTERED_TABLE)),
  /**
   * ALTER TABLE ... SET SORTED BY (...): a new sort_id from next_catalog_id; no schema_versions
   * row.
   */
  SET_SORTED_BY(does(BUMPS_SCHEMA_VERSION, ADVANCES_NEXT_CATALOG_ID), emits(ALTERED_TABLE)),
  /** ALTER TABLE ... RESET SORTED BY: allocates no id; no schema_versions row. */
  RESET_SORTED_BY(does(BUMPS_SCHEMA_VERSION), emits(ALTERED_TABLE)),
  /** COMMENT ON TABLE (a ducklake_tag row with key 'comment'). */
  COMMENT_ON_TABLE(does(BUMPS_SCHEMA_VERSION), emits(ALTERED_TABLE)),
  /** COMMENT ON COLUMN (a ducklake_column_tag row with key 'comment'). */
  COMMENT_ON_COLUMN(does(BUMPS_SCHEMA_VERSION), emits(ALTERED_TABLE)),

  /**
   * A tag set or removed on a schema. Not an operation of stock DuckLake 1.5.5, which refuses
   * COMMENT ON SCHEMA ("not implemented"); it is the Rust implementation's schema tag, which bumps
   * schema_version and records no change kind and no schema_versions row.
   */
  TAG_SCHEMA(does(BUMPS_SCHEMA_VERSION), emits()),

  /**
   * An equality index created on a table. Not an operation of stock DuckLake 1.5.5, which has no
   * such indexes; it is the Rust implementation's index creation, recorded as an alteration of the
   * table: the index takes its id from next_catalog_id, and the table gets a schema_versions row.
   */
  CREATE_INDEX(
      does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW, ADVANCES_NEXT_CATALOG_ID),
      emits(ALTERED_TABLE)),
  /** An equality index dropped: the Rust implementation's, recorded as CREATE_INDEX is. */
  DROP_INDEX(does(BUMPS_SCHEMA_VERSION, WRITES_SCHEMA_VERSIONS_ROW), emits(ALTERED_TABLE)),
  // ---- views ---------------------------------------------------------------------------------
  /** CREATE VIEW. */
  CREATE_VIEW(does(BUMPS_SCHEMA_VERSION, ADVANCES_NEXT_CATALOG_ID), emits(CREATED_VIEW)),
  /** ALTER VIEW ... RENAME TO: the id is kept, the new name is reported as created. */
  RENAME_VIEW(does(BUMPS_SCHEMA_VERSION), emits(CREATED_VIEW)),
  /** COMMENT ON VIEW. */
  COMMENT_ON_VIEW(does(BUMPS_SCHEMA_VERSION), emits(ALTERED_VIEW)),
  /** DROP VIEW. */
  DROP_VIEW(does(BUMPS_SCHEMA_VERSION), emits(DROPPED_VIEW)),

  // ---- macros --------------------------------------------------------------------------------
  /** CREATE MACRO (scalar). */
  CREATE_SCALAR_MACRO(
      does(BUMPS_SCHEMA_VERSION, ADVANCES_NEXT_CATALOG_ID), emits(CREATED_SCALAR_MACRO)),
  /** CREATE MACRO ... AS TABLE. */
  CREATE_TABLE_MACRO(
      does(BUMPS_SCHEMA_VERSION, ADVANCES_NEXT_CATALOG_ID), emits(CREATED_TABLE_MACRO)),
  /** DROP MACRO (scalar). */
  DROP_MACRO(does(BUMPS_SCHEMA_VERSION), emits(DROPPED_SCALAR_MACRO)),
  /** DROP MACRO TABLE. */
  DROP_TABLE_MACRO(does(BUMPS_SCHEMA_VERSION), emits(DROPPED_TABLE_MACRO)),

  // ---- data ----------------------------------------------------------------------------------
  /** INSERT written to a new data file (one next_file_id per file). */
  INSERT_FILE(does(ADVANCES_NEXT_FILE_ID), emits(INSERTED_INTO_TABLE)),
  /** ducklake_add_data_files: registers existing files (file ids, plus one per name mapping). */
  ADD_DATA_FILES(does(ADVANCES_NEXT_FILE_ID), emits(INSERTED_INTO_TABLE)),
  /**
   * INSERT kept inline, into a table that already has an inlined-data table for its latest schema:
   * next_file_id advances by one per table whose only new data is inlined.
   */
  INLINED_INSERT(does(ADVANCES_NEXT_FILE_ID), emits(ChangeKind.INLINED_INSERT)),
  /**
   * INSERT kept inline into a table with no inlined-data table yet: DuckLake creates one and adds
   * one to schema_version per such table, even though nothing else in the catalog changed.
   */
  INLINED_INSERT_NEW_INLINED_TABLE(
      does(ADVANCES_NEXT_FILE_ID, EXTRA_SCHEMA_VERSION_PER_TABLE),
      emits(ChangeKind.INLINED_INSERT)),
  /** DELETE written as a delete file (one next_file_id per delete file). */
  DELETE_FILE(does(ADVANCES_NEXT_FILE_ID), emits(DELETED_FROM_TABLE)),
  /** DELETE that removes every row of a data file: the file is ended, no delete file is written. */
  DELETE_WHOLE_FILE(does(), emits(DELETED_FROM_TABLE)),
  /** DELETE of inlined rows (their end_snapshot is set); no file id. */
  INLINED_DELETE(does(), emits(ChangeKind.INLINED_DELETE)),
  /**
   * DELETE of data-file rows recorded inline in ducklake_inlined_delete_&lt;table_id&gt;; no file
   * id.
   */
  INLINED_FILE_DELETE(does(), emits(ChangeKind.INLINED_DELETE)),
  /** UPDATE: a delete file plus a new data file. */
  UPDATE(does(ADVANCES_NEXT_FILE_ID), emits(DELETED_FROM_TABLE, INSERTED_INTO_TABLE)),

  // ---- maintenance ---------------------------------------------------------------------------
  /** ducklake_merge_adjacent_files. */
  MERGE_ADJACENT_FILES(does(ADVANCES_NEXT_FILE_ID, EXCLUSIVE_COMPACTION), emits(MERGE_ADJACENT)),
  /** ducklake_rewrite_data_files (rewrites files with many deletes). */
  REWRITE_DELETES(does(ADVANCES_NEXT_FILE_ID, EXCLUSIVE_COMPACTION), emits(REWRITE_DELETE)),
  /** ducklake_flush_inlined_data: inlined rows move into a data file that keeps their row ids. */
  FLUSH_INLINED_DATA(does(ADVANCES_NEXT_FILE_ID), emits(INLINE_FLUSH)),
  /** ducklake.set_option / SET ducklake options: written immediately, no snapshot. */
  SET_OPTION(does(OUTSIDE_SNAPSHOT_PROTOCOL), emits()),
  /** ducklake_expire_snapshots: removes snapshot rows, no new snapshot. */
  EXPIRE_SNAPSHOTS(does(OUTSIDE_SNAPSHOT_PROTOCOL), emits()),
  /** ducklake_cleanup_old_files: removes files scheduled for deletion, no new snapshot. */
  CLEANUP_OLD_FILES(does(OUTSIDE_SNAPSHOT_PROTOCOL), emits()),
  /** ducklake_delete_orphaned_files: removes unreferenced files, no new snapshot. */
  DELETE_ORPHANED_FILES(does(OUTSIDE_SNAPSHOT_PROTOCOL), emits());

  private final Set<Effect> effects;
  private final Set<ChangeKind> kinds;

  DuckLakeOperation(Set<Effect> effects, Set<ChangeKind> kinds) {
    this.effects = Collections.unmodifiableSet(effects);
    this.kinds = Collections.unmodifiableSet(kinds);
  }

  /** All effects of this operation. */
  public Set<Effect> effects() {
    return effects;
  }

  /**
   * Whether {@code schema_version} goes up (by the per-commit bump or the extra inlined-table
   * bump).
   */
  public boolean bumpsSchemaVersion() {
    return effects.contains(BUMPS_SCHEMA_VERSION)
        || effects.contains(EXTRA_SCHEMA_VERSION_PER_TABLE);
  }

  /** Whether a {@code ducklake_schema_versions} row is written for the affected table. */
  public boolean writesSchemaVersionsRow() {
    return effects.contains(WRITES_SCHEMA_VERSIONS_ROW);
  }

  /** Whether {@code next_file_id} advances. */
  public boolean advancesNextFileId() {
    return effects.contains(ADVANCES_NEXT_FILE_ID);
  }

  /** Whether {@code next_catalog_id} advances. */
  public boolean advancesNextCatalogId() {
    return effects.contains(ADVANCES_NEXT_CATALOG_ID);
  }

  /** Whether the operation happens outside the snapshot protocol (no snapshot, no changes_made). */
  public boolean outsideSnapshotProtocol() {
    return effects.contains(OUTSIDE_SNAPSHOT_PROTOCOL);
  }

  /** Whether DuckLake refuses to commit this operation together with non-compaction changes. */
  public boolean exclusiveCompaction() {
    return effects.contains(EXCLUSIVE_COMPACTION);
  }

  /** The change kinds this operation contributes to {@code changes_made}. */
  public Set<ChangeKind> emittedKinds() {
    return kinds;
  }

  private static Set<Effect> does(Effect... effects) {
    EnumSet<Effect> set = EnumSet.noneOf(Effect.class);
    set.addAll(List.of(effects));
    return set;
  }

  private static Set<ChangeKind> emits(ChangeKind... kinds) {
    EnumSet<ChangeKind> set = EnumSet.noneOf(ChangeKind.class);
    set.addAll(List.of(kinds));
    return set;
  }
}
