package dev.moraine.duckdb.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.duckdb.reference.MetadataColumn;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shapes {@code dev.moraine.core.rows.DuckLakeRowRenderer} gives the inlined-data tables are
 * the ones stock DuckLake 1.5.5 creates: {@code ducklake_inlined_data_<t>_<v>} is {@code row_id,
 * begin_snapshot, end_snapshot} then the table's columns, and {@code ducklake_inlined_delete_<t>}
 * is {@code file_id, row_id, begin_snapshot}; a deleted inlined row keeps its row with an end.
 */
class InlinedTableShapeTest {
  @TempDir Path dir;

  @Test
  void inlinedDataAndDeleteTables_haveTheRenderedColumns() throws Exception {
    try (ReferenceDuckLake lake = ReferenceDuckLake.open(dir)) {
      lake.execute("CREATE TABLE t (id BIGINT, name VARCHAR)"); // snapshot 1, table 1
      lake.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')"); // snapshot 2, inlined
      lake.execute("DELETE FROM t WHERE id = 1"); // snapshot 3, ends inlined row 0

      String data = DuckLakeTables.inlinedDataTableName(1, 1);
      assertEquals(
          List.of("row_id", "begin_snapshot", "end_snapshot", "id", "name"),
          lake.describe(data).stream().map(MetadataColumn::name).toList());
      List<Map<String, Object>> rows = lake.rows(data);
      assertEquals(2, rows.size(), rows.toString());
      assertEquals(3L, ((Number) rows.get(0).get("end_snapshot")).longValue(), rows.toString());
      assertEquals(null, rows.get(1).get("end_snapshot"), rows.toString());

      List<Map<String, Object>> registry = lake.rows("ducklake_inlined_data_tables");
      assertEquals(1, registry.size(), registry.toString());
      assertEquals(data, registry.get(0).get("table_name"));
      assertEquals(1L, ((Number) registry.get(0).get("schema_version")).longValue());

      // A small delete from a data file is inlined into ducklake_inlined_delete_<t>.
      lake.execute("CALL ducklake_flush_inlined_data('lake')");
      // A flush removes the inlined rows from their table (which stays registered), as the store
      // deletes the flushed chunks: neither side can show those rows at an older snapshot later.
      assertEquals(List.of(), lake.rows(data));
      assertEquals(1, lake.rows("ducklake_inlined_data_tables").size());
      lake.execute("DELETE FROM t WHERE id = 2");
      assertEquals(
          List.of("file_id", "row_id", "begin_snapshot"),
          lake.describe(DuckLakeTables.inlinedDeleteTableName(1)).stream()
              .map(MetadataColumn::name)
              .toList());
    }
  }
}
