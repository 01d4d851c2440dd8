package dev.moraine.ducklake.conflict;

import static dev.moraine.ducklake.changes.ChangeKind.ALTERED_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.ALTERED_VIEW;
import static dev.moraine.ducklake.changes.ChangeKind.DELETED_FROM_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_SCALAR_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_SCHEMA;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_TABLE_MACRO;
import static dev.moraine.ducklake.changes.ChangeKind.DROPPED_VIEW;
import static dev.moraine.ducklake.changes.ChangeKind.INLINED_DELETE;
import static dev.moraine.ducklake.changes.ChangeKind.INLINED_INSERT;
import static dev.moraine.ducklake.changes.ChangeKind.INLINE_FLUSH;
import static dev.moraine.ducklake.changes.ChangeKind.INSERTED_INTO_TABLE;
import static dev.moraine.ducklake.changes.ChangeKind.MERGE_ADJACENT;
import static dev.moraine.ducklake.changes.ChangeKind.REWRITE_DELETE;

import dev.moraine.ducklake.changes.ChangeKind;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The id-keyed half of the matrix: for each kind of this commit, the kinds of a concurrent commit
 * that conflict when both carry the same id. Everything not listed here is compatible by id (for
 * example insert after insert, alter after a concurrent insert, insert after a compaction).
 *
 * <p>{@code deleted_from_table} against a concurrent {@code deleted_from_table} is deliberately
 * absent: that pair is decided at data-file grain (see {@link DeleteTargets}).
 */
final class IdRules {
  private static final Map<ChangeKind, Set<ChangeKind>> RULES = new EnumMap<>(ChangeKind.class);

  static {
    rule(DROPPED_TABLE, DROPPED_TABLE);
    rule(DROPPED_VIEW, DROPPED_VIEW);
    rule(DROPPED_SCALAR_MACRO, DROPPED_SCALAR_MACRO);
    rule(DROPPED_TABLE_MACRO, DROPPED_TABLE_MACRO);
    rule(DROPPED_SCHEMA, DROPPED_SCHEMA);
    rule(INSERTED_INTO_TABLE, DROPPED_TABLE, ALTERED_TABLE, DELETED_FROM_TABLE, INLINED_DELETE);
    rule(INLINED_INSERT, DROPPED_TABLE, ALTERED_TABLE, DELETED_FROM_TABLE, INLINED_DELETE);
    rule(
        DELETED_FROM_TABLE,
        DROPPED_TABLE,
        ALTERED_TABLE,
        MERGE_ADJACENT,
        REWRITE_DELETE,
        INSERTED_INTO_TABLE,
        INLINED_INSERT);
    rule(
        INLINED_DELETE,
        DROPPED_TABLE,
        ALTERED_TABLE,
        INLINED_DELETE,
        INLINE_FLUSH,
        INSERTED_INTO_TABLE,
        INLINED_INSERT);
    rule(INLINE_FLUSH, DROPPED_TABLE, INLINED_DELETE, INLINE_FLUSH);
    rule(MERGE_ADJACENT, DROPPED_TABLE, DELETED_FROM_TABLE, MERGE_ADJACENT, REWRITE_DELETE);
    rule(REWRITE_DELETE, DROPPED_TABLE, DELETED_FROM_TABLE, MERGE_ADJACENT, REWRITE_DELETE);
    rule(ALTERED_TABLE, DROPPED_TABLE, ALTERED_TABLE);
    // DuckLake 1.0 (v1.5) checks altered_view only against altered_view; later versions add
    // dropped_view.
    rule(ALTERED_VIEW, ALTERED_VIEW);
  }

  private IdRules() {}

  private static void rule(ChangeKind mine, ChangeKind first, ChangeKind... rest) {
    RULES.put(mine, EnumSet.of(first, rest));
  }

  /** The concurrent kinds that conflict with {@code mine} on the same id; empty if none. */
  static Set<ChangeKind> conflictingWith(ChangeKind mine) {
    Set<ChangeKind> kinds = RULES.get(mine);
    return kinds == null ? Set.of() : Set.copyOf(kinds);
  }
}
