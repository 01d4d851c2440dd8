package dev.moraine.duckdb.session;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.DuckLakeRowDiff;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session tests' comparison of a stock lake with ours: every ducklake_* row equal, except the
 * names and sizes of the Parquet files each side wrote (named at random; a delete file holds its
 * data file's full path).
 */
final class SessionRows {
  private SessionRows() {}

  /** The differing tables with both sides' rows; empty when they agree. */
  static List<String> differences(ReferenceDuckLake stock, Catalog catalog) throws Exception {
    return differences(stock, catalog, false);
  }

  /**
   * The differing tables, leaving out of stock's rows its partitionings without columns (when
   * {@code besideEmptyPartitionings}): stock's RESET PARTITIONED BY writes one, where the lake
   * keeps no record (RFC 0004 §8.2 item 4).
   */
  static List<String> differences(
      ReferenceDuckLake stock, Catalog catalog, boolean besideEmptyPartitionings) throws Exception {
    DuckLakeRowSet ours = DuckLakeRowRenderer.render(catalog.snapshot());
    java.util.Set<Object> withColumns = new java.util.HashSet<>();
    stock.rows("ducklake_partition_column").forEach(r -> withColumns.add(r.get("partition_id")));
    List<String> differing = new ArrayList<>();
    for (TableDef def : DuckLakeTables.ALL) {
      List<String> theirs =
          stock.rows(def.name()).stream()
              .filter(
                  r ->
                      !besideEmptyPartitionings
                          || !def.name().equals("ducklake_partition_info")
                          || withColumns.contains(r.get("partition_id")))
              .map(r -> DuckLakeRowDiff.normalised(def, masked(def, r)))
              .sorted()
              .toList();
      List<String> mine =
          ours.rows(def.name()).stream()
              .map(r -> DuckLakeRowDiff.normalised(def, masked(def, DuckLakeRowDiff.asMap(r))))
              .sorted()
              .toList();
      if (!theirs.equals(mine)) {
        differing.add(def.name() + "\n  stock: " + theirs + "\n  ours:  " + mine);
      }
    }
    return differing;
  }

  private static Map<String, Object> masked(TableDef def, Map<String, Object> row) {
    if (def.name().equals("ducklake_files_scheduled_for_deletion")) {
      Map<String, Object> out = new LinkedHashMap<>(row);
      out.put("path", "<file>");
      return out;
    }
    if (!def.name().equals("ducklake_data_file") && !def.name().equals("ducklake_delete_file")) {
      return row;
    }
    Map<String, Object> out = new LinkedHashMap<>(row);
    out.put("path", "<file>");
    out.put("file_size_bytes", 0L);
    out.put("footer_size", 0L);
    return out;
  }
}
