/**
 * DuckLake's format knowledge, without storage: the {@code changes_made} grammar, the conflict
 * matrix, the catalog's row model, operation classification and type names.
 */
module dev.moraine.ducklake {
  exports dev.moraine.ducklake.changes;
  exports dev.moraine.ducklake.conflict;
  exports dev.moraine.ducklake.ops;
  exports dev.moraine.ducklake.rows;
  exports dev.moraine.ducklake.types;
}
