package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.StagedRows;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.session.CommitCapture;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The row operations one commit made on a stock lake, read off its catalog before and after by
 * {@link CommitCapture} (the capture {@code DuckLakeSession} uses): what the differential tests
 * hand {@code Catalog.commitStaged}.
 */
final class StagedCapture {
  private StagedCapture() {}

  /** Every spec table's rows of {@code stock} now. */
  static CommitCapture.Rows read(ReferenceDuckLake stock) throws SQLException {
    Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      out.put(def.name(), stock.rows(def.name()));
    }
    return new CommitCapture.Rows(out);
  }

  /** The operations of the commit that took {@code before} to {@code after}. */
  static StagedRows between(long base, CommitCapture.Rows before, CommitCapture.Rows after) {
    return CommitCapture.between(base, before, after);
  }
}
