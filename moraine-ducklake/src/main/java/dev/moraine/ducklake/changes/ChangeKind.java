package dev.moraine.ducklake.changes;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every kind of entry that may appear in {@code ducklake_snapshot_changes.changes_made}.
 *
 * <p>The constants are declared in DuckLake's writer order, so {@link #writerRank()} (and the
 * enum's natural order) gives the order in which {@link ChangesMade#emit(ChangeSet)} writes the
 * groups. {@link #CREATED_TABLE} and {@link #CREATED_VIEW} share one writer group: DuckLake writes
 * tables and views of a schema together.
 *
 * <p>Two kinds are never written by us: {@link #COMPACTED_TABLE} is a legacy kind that the parser
 * accepts and the conflict matrix ignores, and {@link #UNCLASSIFIABLE} stands for any kind word the
 * parser does not recognise. The legacy word {@code flushed_inlined} is not a kind of its own: it
 * is an alias that parses into {@link #INLINE_FLUSH} (see {@link #fromToken(String)}).
 */
public enum ChangeKind {
  /** A schema was dropped; value is the schema id. */
  DROPPED_SCHEMA("dropped_schema", ValueShape.ID, 0),
  /** A table was dropped; value is the table id (a rename writes only {@link #CREATED_TABLE}). */
  DROPPED_TABLE("dropped_table", ValueShape.ID, 1),
  /** A view was dropped; value is the view id. */
  DROPPED_VIEW("dropped_view", ValueShape.ID, 2),
  /** A schema was created; value is its quoted name. */
  CREATED_SCHEMA("created_schema", ValueShape.SCHEMA_NAME, 3),
  /** A table was created or renamed; value is {@code "schema"."table"}. */
  CREATED_TABLE("created_table", ValueShape.QUALIFIED_NAME, 4),
  /**
   * A view was created or renamed; value is {@code "schema"."view"}. Same writer group as tables.
   */
  CREATED_VIEW("created_view", ValueShape.QUALIFIED_NAME, 4),
  /** A scalar macro was created; value is {@code "schema"."macro"}. */
  CREATED_SCALAR_MACRO("created_scalar_macro", ValueShape.QUALIFIED_NAME, 5),
  /** A table macro was created; value is {@code "schema"."macro"}. */
  CREATED_TABLE_MACRO("created_table_macro", ValueShape.QUALIFIED_NAME, 6),
  /** A scalar macro was dropped; value is the macro id. */
  DROPPED_SCALAR_MACRO("dropped_scalar_macro", ValueShape.ID, 7),
  /** A table macro was dropped; value is the macro id. */
  DROPPED_TABLE_MACRO("dropped_table_macro", ValueShape.ID, 8),
  /** New data files were registered for a table; value is the table id. */
  INSERTED_INTO_TABLE("inserted_into_table", ValueShape.ID, 9),
  /** Delete files were written, or whole data files ended, for a table; value is the table id. */
  DELETED_FROM_TABLE("deleted_from_table", ValueShape.ID, 10),
  /**
   * A table's definition changed (columns, partitioning, sorting, comments, tags); value is the
   * table id.
   */
  ALTERED_TABLE("altered_table", ValueShape.ID, 11),
  /** A view's definition or comment changed; value is the view id. */
  ALTERED_VIEW("altered_view", ValueShape.ID, 12),
  /** Rows were inserted into a table's inlined-data table; value is the table id. */
  INLINED_INSERT("inlined_insert", ValueShape.ID, 13),
  /** Inlined rows of a table were deleted; value is the table id. */
  INLINED_DELETE("inlined_delete", ValueShape.ID, 14),
  /** Inlined rows of a table were flushed to a data file; value is the table id. */
  INLINE_FLUSH("inline_flush", ValueShape.ID, 15),
  /** Adjacent data files of a table were merged (compaction); value is the table id. */
  MERGE_ADJACENT("merge_adjacent", ValueShape.ID, 16),
  /**
   * Data files of a table were rewritten to drop deleted rows (compaction); value is the table id.
   */
  REWRITE_DELETE("rewrite_delete", ValueShape.ID, 17),
  /**
   * Legacy compaction kind: parsed, never written, never a cause of conflict. Value is a table id.
   */
  COMPACTED_TABLE("compacted_table", ValueShape.ID, 18),
  /**
   * Any kind word the parser does not know; kept verbatim and treated as a conflict with
   * everything.
   */
  UNCLASSIFIABLE(null, ValueShape.RAW, 19);

  /** How the value after the colon is written. */
  public enum ValueShape {
    /** An unsigned 64-bit id written in decimal. */
    ID,
    /** One double-quoted name (a schema name). */
    SCHEMA_NAME,
    /** Two double-quoted names joined by a dot: {@code "schema"."name"}. */
    QUALIFIED_NAME,
    /** Uninterpreted text (only {@link ChangeKind#UNCLASSIFIABLE}). */
    RAW
  }

  /** The legacy spelling of {@link #INLINE_FLUSH} that DuckLake still accepts. */
  public static final String LEGACY_FLUSH_ALIAS = "flushed_inlined";

  private static final Map<String, ChangeKind> BY_TOKEN =
      Stream.of(values())
          .filter(k -> k.token != null)
          .collect(Collectors.toUnmodifiableMap(k -> k.token, Function.identity()));

  private final String token;
  private final ValueShape shape;
  private final int writerRank;

  ChangeKind(String token, ValueShape shape, int writerRank) {
    this.token = token;
    this.shape = shape;
    this.writerRank = writerRank;
  }

  /** The lower-case word written before the colon; {@code null} for {@link #UNCLASSIFIABLE}. */
  public String token() {
    return token;
  }

  /** The shape of the value this kind carries. */
  public ValueShape shape() {
    return shape;
  }

  /**
   * The position of this kind's group in DuckLake's writer order (smaller is written first). {@link
   * #CREATED_TABLE} and {@link #CREATED_VIEW} share a rank.
   */
  public int writerRank() {
    return writerRank;
  }

  /**
   * Whether {@link ChangesMade#emit(ChangeSet)} may write this kind (false for legacy and
   * unclassifiable).
   */
  public boolean emittable() {
    return this != COMPACTED_TABLE && this != UNCLASSIFIABLE;
  }

  /** Whether the value is an id (as opposed to a quoted name or raw text). */
  public boolean carriesId() {
    return shape == ValueShape.ID;
  }

  /**
   * Whether this kind is one of the two compaction kinds DuckLake refuses to mix with other
   * changes.
   */
  public boolean isCompaction() {
    return this == MERGE_ADJACENT || this == REWRITE_DELETE;
  }

  /**
   * Looks a kind word up the way DuckLake does: ASCII case-insensitively, with {@code
   * flushed_inlined} mapped to {@link #INLINE_FLUSH}.
   *
   * @return the kind, or empty if DuckLake does not know the word
   */
  public static Optional<ChangeKind> fromToken(String word) {
    if (word == null) {
      return Optional.empty();
    }
    String lower = word.toLowerCase(Locale.ROOT);
    if (!isAscii(word)) {
      // DuckLake folds ASCII only; a non-ASCII letter can never match a kind word.
      return Optional.empty();
    }
    if (lower.equals(LEGACY_FLUSH_ALIAS)) {
      return Optional.of(INLINE_FLUSH);
    }
    return Optional.ofNullable(BY_TOKEN.get(lower));
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0x7f) {
        return false;
      }
    }
    return true;
  }
}
