package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data file ends while a row of it is deleted inline, then the table's inlined data is flushed
 * (RFC 0004 §8.2 item 14). Stock DuckLake 1.5.5 ends a lone data file only by rewriting it ({@code
 * ducklake_rewrite_data_files}, which records {@code rewrite_delete}); our side ends it with {@code
 * expireDataFile} and registers the rewritten file, so that snapshot's {@code changes_made} and the
 * new file's {@code row_id_start} (stock leaves it null) differ, and the whole-catalog comparison
 * of {@link InlinedDataDifferentialTest} does not apply. What the flush writes must be the same:
 * the ids, snapshots, counts and {@code partial_max} of every data and delete file, and the flush's
 * {@code changes_made}.
 */
class ExpiredFileInlineDeletesDifferentialTest {
  @TempDir Path dir;

  private static final List<String> DATA_FILE_FIELDS =
      List.of("data_file_id", "begin_snapshot", "end_snapshot", "record_count", "partial_max");
  private static final List<String> DELETE_FILE_FIELDS =
      List.of(
          "delete_file_id",
          "data_file_id",
          "begin_snapshot",
          "end_snapshot",
          "delete_count",
          "partial_max");

  private static List<String> project(List<Map<String, Object>> rows, List<String> fields) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      List<String> values = new ArrayList<>();
      for (String f : fields) {
        values.add(f + "=" + r.get(f));
      }
      out.add(String.join(" ", values));
    }
    out.sort(null);
    return out;
  }

  private static List<Map<String, Object>> ours(DuckLakeRowSet set, String table) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (DuckLakeRow r : set.rows(table)) {
      out.add(RowComparison.asMap(r));
    }
    return out;
  }

  @Test
  void theFlushWritesTheEndedFilesDeleteFile_asStockDuckLakeDoes() throws Exception {
    try (PairedLakes lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(10),
            "expired-inline")) {
      lakes.stock.executeAll(
          List.of(
              "CREATE TABLE t (a INTEGER)",
              "INSERT INTO t SELECT range::INTEGER FROM range(20)",
              "INSERT INTO t VALUES (500), (501)",
              "DELETE FROM t WHERE a = 3",
              "CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0.0)",
              "CALL ducklake_flush_inlined_data('lake')"));
      Catalog c = lakes.catalog;
      c.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int32"))));
      c.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f.parquet", 20, 274, 157)));
      c.commit(tx -> tx.insertInlined(1, List.of(List.of(500), List.of(501))));
      c.commit(tx -> tx.deleteRowInline(1, 3));
      c.commit(
          tx -> {
            tx.expireDataFile(1, 0);
            tx.registerDataFile(1, NewDataFile.parquet("rewritten.parquet", 19, 562, 297));
          });
      c.commit(
          tx ->
              tx.flushInlined(
                  1,
                  InlineFlush.of(NewDataFile.parquet("flushed.parquet", 2, 567, 440))
                      .withFileDeletes(0, FlushDeleteFile.parquet("d.parquet", 938, 743))));
      DuckLakeRowSet ours = lakes.ours();
      List<String> stockDeletes =
          project(lakes.stock.rows("ducklake_delete_file"), DELETE_FILE_FIELDS);
      // The delete file of the ended data file 0: backdated to the deletion, never ended.
      assertEquals(
          List.of(
              "delete_file_id=4 data_file_id=0 begin_snapshot=4 end_snapshot=null delete_count=1"
                  + " partial_max=4"),
          stockDeletes);
      assertEquals(stockDeletes, project(ours(ours, "ducklake_delete_file"), DELETE_FILE_FIELDS));
      List<String> stockFiles = project(lakes.stock.rows("ducklake_data_file"), DATA_FILE_FIELDS);
      assertEquals(3, stockFiles.size(), "the ended, the rewritten and the flushed file");
      assertEquals(stockFiles, project(ours(ours, "ducklake_data_file"), DATA_FILE_FIELDS));
      assertEquals(
          "deleted_from_table:1,inline_flush:1", lakes.stock.latestSnapshot().changesMade());
      assertEquals(lakes.stock.latestSnapshot().changesMade(), c.snapshot().info().changesMade());
      assertEquals(List.of(), lakes.stock.rows("ducklake_inlined_delete_1"));
    }
  }
}
