package dev.moraine.ducklake.rows;

import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_snapshot_changes}: The change summary and commit information of one
 * snapshot.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param snapshotId column snapshot_id (BIGINT PRIMARY KEY)
 * @param changesMade column changes_made (VARCHAR)
 * @param author column author (VARCHAR)
 * @param commitMessage column commit_message (VARCHAR)
 * @param commitExtraInfo column commit_extra_info (VARCHAR)
 */
public record SnapshotChangesRow(
    Long snapshotId,
    String changesMade,
    String author,
    String commitMessage,
    String commitExtraInfo)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_snapshot_changes",
          List.of(
              new ColumnDef("snapshot_id", SqlType.BIGINT, false, true),
              new ColumnDef("changes_made", SqlType.VARCHAR, false, false),
              new ColumnDef("author", SqlType.VARCHAR, false, false),
              new ColumnDef("commit_message", SqlType.VARCHAR, false, false),
              new ColumnDef("commit_extra_info", SqlType.VARCHAR, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public SnapshotChangesRow {
    java.util.Objects.requireNonNull(snapshotId, "snapshot_id");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(snapshotId, changesMade, author, commitMessage, commitExtraInfo);
  }
}
