package dev.moraine.ducklake.conflict;

/**
 * The families of rules in DuckLake's conflict check, for callers that want to branch on the cause.
 */
public enum ConflictRule {
  /** Both sides name the same object id in kinds the matrix lists as incompatible. */
  SAME_OBJECT,
  /**
   * Both sides create an object of the same name (schema, or table/view, or macro)
   * case-insensitively.
   */
  SAME_NAME,
  /** One side drops a schema the other creates something in. */
  SCHEMA_DROPPED,
  /**
   * Both sides delete from the same table and the deletes touch a common data file (or facts are
   * unknown).
   */
  SAME_DATA_FILE,
  /** An entry of an unknown kind was present; it is treated as conflicting with everything. */
  UNCLASSIFIABLE
}
