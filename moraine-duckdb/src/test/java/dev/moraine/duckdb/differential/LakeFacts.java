package dev.moraine.duckdb.differential;

import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSnapshot;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reads, from a reference lake, the inputs our pure functions take: change sets and file facts. */
final class LakeFacts {

  private LakeFacts() {}

  /**
   * The union of the changes of every snapshot after {@code premise} (up to and including {@code
   * upTo}).
   */
  static ChangeSet changesBetween(ReferenceDuckLake lake, long premise, long upTo)
      throws SQLException {
    List<ChangeSet> sets = new ArrayList<>();
    for (ReferenceSnapshot s : lake.snapshots()) {
      if (s.snapshotId() > premise && s.snapshotId() <= upTo) {
        sets.add(ChangesMade.parse(s.changesMade()));
      }
    }
    return ChangeSet.unionOf(sets);
  }

  /**
   * Data files deleted from or ended after {@code premise}: the data_file_id of every delete file
   * with begin_snapshot &gt; premise, and every data file with end_snapshot &gt; premise.
   */
  static Set<Long> filesDeletedOrEndedAfter(ReferenceDuckLake lake, long premise)
      throws SQLException {
    Set<Long> ids = new TreeSet<>();
    for (Map<String, Object> row :
        lake.query(
            "SELECT data_file_id FROM "
                + lake.metadataTable("ducklake_delete_file")
                + " WHERE begin_snapshot > "
                + premise)) {
      ids.add(((Number) row.get("data_file_id")).longValue());
    }
    for (Map<String, Object> row :
        lake.query(
            "SELECT data_file_id FROM "
                + lake.metadataTable("ducklake_data_file")
                + " WHERE end_snapshot > "
                + premise)) {
      ids.add(((Number) row.get("data_file_id")).longValue());
    }
    return ids;
  }

  /** Data files that snapshot {@code snapshotId} wrote delete files for or ended. */
  static Set<Long> filesDeletedOrEndedAt(ReferenceDuckLake lake, long snapshotId)
      throws SQLException {
    Set<Long> ids = new TreeSet<>();
    for (Map<String, Object> row :
        lake.query(
            "SELECT data_file_id FROM "
                + lake.metadataTable("ducklake_delete_file")
                + " WHERE begin_snapshot = "
                + snapshotId)) {
      ids.add(((Number) row.get("data_file_id")).longValue());
    }
    for (Map<String, Object> row :
        lake.query(
            "SELECT data_file_id FROM "
                + lake.metadataTable("ducklake_data_file")
                + " WHERE end_snapshot = "
                + snapshotId)) {
      ids.add(((Number) row.get("data_file_id")).longValue());
    }
    return ids;
  }

  /** Schema id to name for the schemas live at {@code snapshotId}. */
  static Map<Long, String> schemasAt(ReferenceDuckLake lake, long snapshotId) throws SQLException {
    Map<Long, String> names = new TreeMap<>();
    for (Map<String, Object> row : lake.rowsVisibleAt("ducklake_schema", snapshotId)) {
      names.put(((Number) row.get("schema_id")).longValue(), (String) row.get("schema_name"));
    }
    return names;
  }
}
