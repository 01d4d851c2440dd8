package dev.moraine.core.catalog;

import dev.moraine.ducklake.rows.DuckLakeRow;
import java.util.List;
import java.util.Objects;

/**
 * One commit as DuckLake authors it: the row operations it made on the {@code ducklake_*} tables,
 * against the snapshot it read ({@code baseSnapshotId}), for {@link Catalog#commitStaged}. Each
 * operation carries the whole row, in the row model of moraine-ducklake ({@code
 * dev.moraine.ducklake.rows}).
 *
 * @param baseSnapshotId the snapshot DuckLake read to author the rows: its ids, counters and
 *     statistics are computed from it
 * @param ops the operations, in any order
 */
public record StagedRows(long baseSnapshotId, List<StagedRows.Op> ops) {
  public StagedRows {
    ops = List.copyOf(Objects.requireNonNull(ops, "ops"));
  }

  /** One row operation. */
  public sealed interface Op {
    /** The row the operation names: the new row of an insert, the row as it stood for an end. */
    DuckLakeRow row();
  }

  /**
   * {@code INSERT} of a row. For {@code ducklake_table_stats} and {@code
   * ducklake_table_column_stats}, which DuckLake updates in place, the row's new values: it takes
   * the place of the row with the same key.
   */
  public record Insert(DuckLakeRow row) implements Op {
    public Insert {
      Objects.requireNonNull(row, "row");
    }
  }

  /**
   * {@code DELETE} of a row, given as it stood: it leaves the catalog, history included (DuckLake
   * deletes rows outright when it drops an emptied inlined-data table, replaces a delete file, or
   * expires snapshots).
   */
  public record Delete(DuckLakeRow row) implements Op {
    public Delete {
      Objects.requireNonNull(row, "row");
    }
  }

  /** {@code UPDATE ... SET end_snapshot = endSnapshot} of a live row, given as it stood before. */
  public record End(DuckLakeRow row, long endSnapshot) implements Op {
    public End {
      Objects.requireNonNull(row, "row");
    }
  }
}
