package dev.moraine.bench;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import java.time.Instant;
import java.util.List;

/**
 * One append of a data file as DuckLake writes it, authored against the snapshot it read: the rows
 * a DuckLake session hands {@code Catalog.commitStaged}. When other commits land between the read
 * and the commit, the door rebases these rows onto the head.
 */
final class StagedAppend {
  private StagedAppend() {}

  static StagedRows of(CatalogSnapshot read, long tableId, String path, long rows, long bytes) {
    SnapshotInfo base = read.info();
    long n = base.snapshotId() + 1;
    long file = base.nextFileId();
    TableStats stats = read.tableStats(tableId).orElse(new TableStats(tableId, 0, 0, 0));
    return new StagedRows(
        base.snapshotId(),
        List.of(
            new StagedRows.Insert(
                new SnapshotRow(
                    n, Instant.now(), base.schemaVersion(), base.nextCatalogId(), file + 1)),
            new StagedRows.Insert(
                new SnapshotChangesRow(n, "inserted_into_table:" + tableId, null, null, null)),
            new StagedRows.Insert(
                new DataFileRow(
                    file,
                    tableId,
                    n,
                    null,
                    null,
                    path,
                    true,
                    "parquet",
                    rows,
                    bytes,
                    bytes / 3,
                    stats.nextRowId(),
                    null,
                    null,
                    null,
                    null)),
            new StagedRows.Insert(
                new TableStatsRow(
                    tableId,
                    stats.recordCount() + rows,
                    stats.nextRowId() + rows,
                    stats.fileSizeBytes() + bytes))));
  }
}
