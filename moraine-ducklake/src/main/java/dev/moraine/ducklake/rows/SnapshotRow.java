package dev.moraine.ducklake.rows;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * A row of {@code ducklake_snapshot}: One committed snapshot and the catalog counters after it.
 *
 * <p>Components are in DuckLake's column order; a null component is SQL NULL.
 *
 * @param snapshotId column snapshot_id (BIGINT PRIMARY KEY)
 * @param snapshotTime column snapshot_time (TIMESTAMPTZ)
 * @param schemaVersion column schema_version (BIGINT)
 * @param nextCatalogId column next_catalog_id (BIGINT)
 * @param nextFileId column next_file_id (BIGINT)
 */
public record SnapshotRow(
    Long snapshotId, Instant snapshotTime, Long schemaVersion, Long nextCatalogId, Long nextFileId)
    implements DuckLakeRow {

  /** The table's name and columns, in order. */
  public static final TableDef DEF =
      new TableDef(
          "ducklake_snapshot",
          List.of(
              new ColumnDef("snapshot_id", SqlType.BIGINT, false, true),
              new ColumnDef("snapshot_time", SqlType.TIMESTAMPTZ, false, false),
              new ColumnDef("schema_version", SqlType.BIGINT, false, false),
              new ColumnDef("next_catalog_id", SqlType.BIGINT, false, false),
              new ColumnDef("next_file_id", SqlType.BIGINT, false, false)));

  /** The table name. */
  public static final String TABLE = DEF.name();

  /** The column names in DuckLake's order. */
  public static final List<String> COLUMNS = DEF.columnNames();

  /** Checks the columns DuckLake declares NOT NULL or PRIMARY KEY. */
  public SnapshotRow {
    java.util.Objects.requireNonNull(snapshotId, "snapshot_id");
  }

  @Override
  public TableDef def() {
    return DEF;
  }

  @Override
  public List<Object> values() {
    return Arrays.asList(snapshotId, snapshotTime, schemaVersion, nextCatalogId, nextFileId);
  }
}
