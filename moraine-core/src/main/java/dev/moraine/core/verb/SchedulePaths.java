package dev.moraine.core.verb;

import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;

/**
 * The path a {@code ducklake_files_scheduled_for_deletion} record names, as stock DuckLake writes
 * it: a file path relative to its table is resolved against the table's path, and a table path
 * relative to its schema against the schema's, so the record's path is relative to the lake's data
 * path, or absolute.
 */
public final class SchedulePaths {
  private SchedulePaths() {}

  /** The schedule record of file {@code fileId}, its time left unset. */
  public static GcFileValue.Builder of(
      SchemaValue schema, TableValue table, long fileId, String path, boolean pathIsRelative) {
    String resolved = path;
    boolean relative = pathIsRelative;
    if (relative) {
      relative = table.getPathIsRelative();
      resolved = table.getPath() + resolved;
      if (relative) {
        relative = schema.getPathIsRelative();
        resolved = schema.getPath() + resolved;
      }
    }
    return GcFileValue.newBuilder()
        .setDataFileId(fileId)
        .setPath(resolved)
        .setPathIsRelative(relative);
  }
}
