package dev.moraine.core.verb;

import dev.moraine.core.catalog.StagedRows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The inlined rows of a staged commit as the rebase ({@link StagedRebase}) sees them: the tables it
 * inlines rows into, how many rows it appends to each, the tables it deletes inlined or data-file
 * rows from, and those data files.
 *
 * <p>A table the commit deletes rows from inline cannot have taken an insert since the base without
 * a conflict (DuckLake's matrix: a delete conflicts with a concurrent insert into its table), so
 * its row ids never move, and an UPDATE's re-inlined row (under its old id) need not be told from
 * an append here: the rebase moves row ids only of tables the commit only appends to.
 */
final class StagedInlinedShape {
  private final List<StagedRows.InlinedOp> ops;

  /** Table -> rows the commit appends to it inline; 0 for a table it also deletes rows from. */
  private final Map<Long, Long> appended = new LinkedHashMap<>();

  /** Tables the commit inlines rows into. */
  private final Set<Long> tables = new TreeSet<>();

  /** Tables the commit deletes inlined rows or data-file rows of inline. */
  private final Set<Long> deletedFrom = new TreeSet<>();

  private StagedInlinedShape(List<StagedRows.InlinedOp> ops) {
    this.ops = ops;
  }

  static StagedInlinedShape of(List<StagedRows.InlinedOp> ops) {
    StagedInlinedShape shape = new StagedInlinedShape(ops);
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedEnd || op instanceof StagedRows.InlinedFileDelete) {
        shape.deletedFrom.add(op.tableId());
      }
    }
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedInsert i) {
        shape.tables.add(i.tableId());
        shape.appended.merge(
            i.tableId(), shape.deletedFrom.contains(i.tableId()) ? 0L : 1L, Long::sum);
      }
    }
    return shape;
  }

  /** Tables the commit inlines rows into. */
  Set<Long> tables() {
    return tables;
  }

  /** Tables the commit deletes rows of inline: their row ids do not move. */
  Set<Long> deletedFrom() {
    return deletedFrom;
  }

  /** Table -> rows appended inline (0 for a table the commit also deletes rows from). */
  Map<Long, Long> appended() {
    return appended;
  }

  /** The data files the commit deletes rows of inline. */
  List<Long> filesDeletedFrom() {
    List<Long> out = new ArrayList<>();
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedFileDelete d) {
        out.add(d.dataFileId());
      }
    }
    return out;
  }

  /**
   * The operations moved onto the head: the stamped snapshot ({@code stamped}) to {@code n}, and
   * inserted row ids by their table's shift.
   */
  List<StagedRows.InlinedOp> moved(Map<Long, Long> rowShift, long stamped, long n) {
    List<StagedRows.InlinedOp> out = new ArrayList<>(ops.size());
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedInsert i) {
        long shift = deletedFrom.contains(i.tableId()) ? 0 : rowShift.getOrDefault(i.tableId(), 0L);
        out.add(
            new StagedRows.InlinedInsert(
                i.tableId(),
                i.schemaVersion(),
                i.rowId() + shift,
                at(i.beginSnapshot(), stamped, n),
                i.values()));
      } else if (op instanceof StagedRows.InlinedEnd e) {
        out.add(
            new StagedRows.InlinedEnd(
                e.tableId(), e.schemaVersion(), e.rowId(), at(e.endSnapshot(), stamped, n)));
      } else if (op instanceof StagedRows.InlinedFileDelete d) {
        out.add(
            new StagedRows.InlinedFileDelete(
                d.tableId(), d.dataFileId(), d.position(), at(d.beginSnapshot(), stamped, n)));
      } else {
        // A flush's removal names rows and deletions of the base, which do not move.
        out.add(op);
      }
    }
    return out;
  }

  private static long at(long snapshot, long stamped, long n) {
    return snapshot == stamped ? n : snapshot;
  }
}
