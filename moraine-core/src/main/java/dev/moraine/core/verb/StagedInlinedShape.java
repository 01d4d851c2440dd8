package dev.moraine.core.verb;

import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.view.SnapshotView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The inlined rows of a staged commit as the rebase ({@link StagedRebase}) sees them: which inserts
 * append rows (new row ids, moved by the table's advance) and which re-inline a row the commit ends
 * or deletes from a file (DuckLake's UPDATE, under the row's own id, which stays), and the data
 * files the commit deletes rows of.
 */
final class StagedInlinedShape {
  private final List<StagedRows.InlinedOp> ops;

  /** (table, row id) of the rows the commit ends or deletes from a file. */
  private final Set<List<Long>> removed;

  /** Table -> rows the commit appends to it inline. */
  private final Map<Long, Long> appended = new LinkedHashMap<>();

  /** Tables the commit inlines rows into (appends or updates). */
  private final Set<Long> tables = new TreeSet<>();

  private StagedInlinedShape(List<StagedRows.InlinedOp> ops, Set<List<Long>> removed) {
    this.ops = ops;
    this.removed = removed;
  }

  /**
   * The shape of {@code ops}, file deletions resolved to row ids through the data files {@code
   * premise} holds.
   */
  static StagedInlinedShape of(List<StagedRows.InlinedOp> ops, SnapshotView premise) {
    Set<List<Long>> removed = new HashSet<>();
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedEnd e) {
        removed.add(List.of(e.tableId(), e.rowId()));
      } else if (op instanceof StagedRows.InlinedFileDelete d) {
        premise
            .recordOf(new EntityKey.DataFile(d.tableId(), d.dataFileId()), DataFileValue.class)
            .filter(DataFileValue::hasRowIdStart)
            .ifPresent(f -> removed.add(List.of(d.tableId(), f.getRowIdStart() + d.position())));
      }
    }
    StagedInlinedShape shape = new StagedInlinedShape(ops, removed);
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedInsert i) {
        shape.tables.add(i.tableId());
        shape.appended.merge(i.tableId(), shape.isUpdate(i) ? 0L : 1L, Long::sum);
      }
    }
    return shape;
  }

  /** Whether {@code i} re-inlines a row the commit ends or deletes from a file: an UPDATE. */
  private boolean isUpdate(StagedRows.InlinedInsert i) {
    return removed.contains(List.of(i.tableId(), i.rowId()));
  }

  /** Tables the commit inlines rows into. */
  Set<Long> tables() {
    return tables;
  }

  /** Table -> rows appended inline (an updated row appends none). */
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
   * appended row ids by their table's shift.
   */
  List<StagedRows.InlinedOp> moved(Map<Long, Long> rowShift, long stamped, long n) {
    List<StagedRows.InlinedOp> out = new ArrayList<>(ops.size());
    for (StagedRows.InlinedOp op : ops) {
      if (op instanceof StagedRows.InlinedInsert i) {
        long shift = isUpdate(i) ? 0 : rowShift.getOrDefault(i.tableId(), 0L);
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
      }
    }
    return out;
  }

  private static long at(long snapshot, long stamped, long n) {
    return snapshot == stamped ? n : snapshot;
  }
}
