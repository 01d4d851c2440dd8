package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.ducklake.rows.MacroRow;
import dev.moraine.ducklake.rows.PartitionInfoRow;
import dev.moraine.ducklake.rows.SchemaRow;
import dev.moraine.ducklake.rows.SortInfoRow;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one check on the catalog ids a staged commit draws that spans kinds: schemas, tables, views,
 * macros, partitionings and sort keys share {@code next_catalog_id}, so an id the commit draws
 * names one new entity only. Each kind's own checks bound its ids to the commit's range and refuse
 * a repeat within the kind; a row naming an id below the range (a renamed table, a replaced view)
 * draws nothing and is not counted here.
 */
final class StagedIds {
  private StagedIds() {}

  static void requireDistinct(
      SnapshotValue premiseRecord,
      SnapshotValue record,
      List<TableRow> tables,
      List<SchemaRow> schemas,
      List<ViewRow> views,
      List<MacroRow> macros,
      List<PartitionInfoRow> partitions,
      List<SortInfoRow> sorts) {
    Map<Long, String> drawn = new HashMap<>();
    Range range = new Range(premiseRecord, record, drawn);
    tables.forEach(r -> range.take(r.tableId(), "table"));
    schemas.forEach(r -> range.take(r.schemaId(), "schema"));
    views.forEach(r -> range.take(r.viewId(), "view"));
    macros.forEach(r -> range.take(r.macroId(), "macro"));
    partitions.forEach(r -> range.take(r.partitionId(), "partitioning"));
    sorts.forEach(r -> range.take(r.sortId(), "sort key"));
  }

  private record Range(SnapshotValue premiseRecord, SnapshotValue record, Map<Long, String> drawn) {
    void take(Long id, String kind) {
      if (id == null || !StagedRowChecks.drawn(id, premiseRecord, record)) {
        return;
      }
      String before = drawn.putIfAbsent(id, kind);
      if (before != null) {
        throw new InvalidArgumentException(
            "catalog id "
                + Long.toUnsignedString(id)
                + " is drawn twice by one commit, for a "
                + before
                + " and a "
                + kind);
      }
    }
  }
}
