package dev.moraine.core.catalog;

/**
 * The stable codes a {@link MoraineException} carries. A code never changes meaning once released;
 * callers may switch on it. docs/errors.md lists every code with what the caller should do and what
 * holds afterwards.
 */
public enum ErrorCode {
  /** The entity, snapshot or timestamp asked for does not exist in the catalog. */
  NOT_FOUND,
  /** The snapshot id was valid once but its record has been expired. */
  SNAPSHOT_EXPIRED,
  /** A read-only open found a store that holds no catalog. */
  NOT_INITIALIZED,
  /** The store's format stamp is one this library does not read. */
  UNSUPPORTED_FORMAT,
  /** The store carries a migration marker: a format migration is under way or was interrupted. */
  MIGRATION_IN_PROGRESS,
  /** Stored bytes are damaged or inconsistent with the format. */
  CORRUPTION,
  /** The store failed or timed out; the operation may be repeated. */
  STORE_UNAVAILABLE,
  /** A newer writer has taken the store over; this handle is dead. */
  FENCED,
  /** The catalog, or the store handle under it, was closed. */
  CLOSED,
  /** An argument is outside what the method accepts. */
  INVALID_ARGUMENT,
  /** A defect inside this library: a store call was refused as malformed. */
  INTERNAL,
  /** A commit named an entity that already exists (a schema, a table or view, a column). */
  ALREADY_EXISTS,
  /**
   * A concurrent commit changed what this commit depends on; nothing of this commit was written.
   */
  COMMIT_CONFLICT,
  /** A commit lost every allowed attempt to concurrent commits; nothing of it was written. */
  RETRY_BUDGET_EXHAUSTED,
  /** A commit failed after it reached the store; whether it landed is not known. */
  COMMIT_OUTCOME_UNKNOWN,
  /** The thread waiting for a commit was interrupted before the commit was submitted. */
  INTERRUPTED,
  /**
   * A verb would change the rows of a table that carries equality indexes in a way whose entries
   * this library cannot keep true (a file's rows, an index whose build is under way), or drop or
   * retype a column one of them names. Nothing was staged.
   */
  INDEXED_TABLE,
  /**
   * A commit would give an equality index declared UNIQUE a value another row holds, or two of its
   * own rows the same value; nothing of the commit was written.
   */
  DUPLICATE_INDEX_VALUE,
  /**
   * The store was opened with another write-ahead-log store than the one the catalog records (a
   * different one, none though one is recorded, or one though none is); nothing was written.
   */
  WAL_STORE_MISMATCH,
  /** A lake location cannot name a lake: an unknown URI scheme, no bucket, a malformed URI. */
  INVALID_LOCATION,
  /** A lake location names a place that does not exist, such as a missing bucket. */
  LOCATION_NOT_FOUND,
  /** A lake location holds something other than a lake, which is left as it is. */
  NOT_A_LAKE,
  /**
   * An export into a DuckDB file was refused before anything was written: the file holds something
   * other than a DuckLake catalog, a history that is not this lake's, or a later snapshot than the
   * one exported, or it is in use. The file is left as it was.
   */
  EXPORT_REFUSED,
  /**
   * Writing an export into a DuckDB file failed part way; the export's transaction was rolled back
   * (or its new file removed), so the file is left as it was.
   */
  EXPORT_FAILED,
  /**
   * A compaction named an input data file that is not live at the commit's premise: a concurrent
   * commit has merged, rewritten or expired it since the inputs were chosen. Nothing was staged.
   */
  COMPACTION_INPUT_NOT_LIVE
}
