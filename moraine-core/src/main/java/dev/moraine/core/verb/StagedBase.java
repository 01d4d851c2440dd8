package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.tableOf;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.rows.DuckLakeRow;
import java.util.List;

/**
 * What the staged-row door's rows may name: the base's live tables and columns, and those the same
 * commit creates ({@link StagedSchemaChanges}); and the refusal of files in tables with equality
 * indexes, whose entries this door does not derive yet. Confined to the thread running the
 * translation.
 */
final class StagedBase {
  private final SnapshotView premise;
  private final StagedSchemaChanges creation;

  StagedBase(SnapshotView premise, StagedSchemaChanges creation) {
    this.premise = premise;
    this.creation = creation;
  }

  /** The base's live table, or null for one this commit creates (it has no indexes). */
  TableInfo liveTable(long tableId, DuckLakeRow r) {
    return liveTable(tableId, tableOf(r) + " row");
  }

  /** As {@link #liveTable(long, DuckLakeRow)}, for a row {@code what} names. */
  TableInfo liveTable(long tableId, String what) {
    if (creation.creates(tableId)) {
      return null;
    }
    return premise
        .table(tableId)
        .orElseThrow(
            () ->
                new NotFoundException(
                    ErrorCode.NOT_FOUND,
                    what
                        + " names table "
                        + Long.toUnsignedString(tableId)
                        + ", which the base does not hold live"));
  }

  void liveColumn(long tableId, long columnId, DuckLakeRow r) {
    if (!creation.createsColumn(tableId, columnId)
        && premise.columns(tableId).stream().noneMatch(c -> c.columnId() == columnId)) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          tableOf(r)
              + " row names column "
              + Long.toUnsignedString(columnId)
              + ", which table "
              + Long.toUnsignedString(tableId)
              + " does not have");
    }
  }

  /** Files of a table with equality indexes need their entries, which this door derives not yet. */
  void refuseIndexed(TableInfo table, String what) {
    if (table == null) {
      return;
    }
    List<IndexInfo> indexes = premise.indexes(table.tableId());
    if (!indexes.isEmpty()) {
      throw new IndexedTableException(
          "commitStaged (" + what + ")",
          table.tableId(),
          premise.schema(table.schemaId()).map(s -> s.name()).orElse("?"),
          table.name(),
          indexes.stream().map(IndexInfo::name).toList());
    }
  }
}
