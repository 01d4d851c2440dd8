package dev.moraine.core.catalog;

import dev.moraine.ducklake.rows.DuckLakeRow;
import java.util.ArrayList;
import java.util.Collections;
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
 * @param ops the operations on the {@code ducklake_*} tables, in any order
 * @param inlined the operations on the inlined-data tables ({@code ducklake_inlined_data_<t>_<v>},
 *     {@code ducklake_inlined_delete_<t>}), in any order
 */
public record StagedRows(
    long baseSnapshotId, List<StagedRows.Op> ops, List<StagedRows.InlinedOp> inlined) {
  public StagedRows {
    ops = List.copyOf(Objects.requireNonNull(ops, "ops"));
    inlined = List.copyOf(Objects.requireNonNull(inlined, "inlined"));
  }

  /** A commit that changes no inlined-data table. */
  public StagedRows(long baseSnapshotId, List<StagedRows.Op> ops) {
    this(baseSnapshotId, ops, List.of());
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

  /** One operation on an inlined-data table of table {@code tableId}. */
  public sealed interface InlinedOp {
    long tableId();
  }

  /**
   * {@code INSERT} of a row into {@code ducklake_inlined_data_<tableId>_<schemaVersion>}: rows an
   * INSERT inlines, or the new version of a row an UPDATE changes (under the old row's id).
   *
   * @param values the row's values in the table's column order, in the forms {@link
   *     Transaction#insertInlined} takes (nulls allowed)
   */
  public record InlinedInsert(
      long tableId, long schemaVersion, long rowId, long beginSnapshot, List<Object> values)
      implements InlinedOp {
    public InlinedInsert {
      values = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(values)));
    }
  }

  /**
   * {@code UPDATE ducklake_inlined_data_<tableId>_<schemaVersion> SET end_snapshot = endSnapshot}
   * of the live inlined row {@code rowId}: a DELETE (or the old version of an UPDATE) of it.
   */
  public record InlinedEnd(long tableId, long schemaVersion, long rowId, long endSnapshot)
      implements InlinedOp {}

  /**
   * {@code INSERT} into {@code ducklake_inlined_delete_<tableId>}: the row at {@code position} of
   * data file {@code dataFileId} deleted inline (DuckLake's {@code row_id} column of that table).
   */
  public record InlinedFileDelete(long tableId, long dataFileId, long position, long beginSnapshot)
      implements InlinedOp {}

  /**
   * {@code DELETE} of a row from {@code ducklake_inlined_data_<tableId>_<schemaVersion>}, as
   * DuckLake's flush ({@code ducklake_flush_inlined_data}) removes every inlined row it wrote into
   * files: the row's id and the snapshot it was inlined at name it (an UPDATE leaves two versions
   * of one id).
   */
  public record InlinedRemoval(long tableId, long schemaVersion, long rowId, long beginSnapshot)
      implements InlinedOp {}

  /**
   * {@code DELETE} of a row from {@code ducklake_inlined_delete_<tableId>}, as a flush removes the
   * inlined deletions of data-file rows it wrote into delete files.
   */
  public record InlinedFileDeleteRemoval(long tableId, long dataFileId, long position)
      implements InlinedOp {}
}
