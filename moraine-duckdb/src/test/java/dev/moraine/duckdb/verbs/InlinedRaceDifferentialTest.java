package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Raced pairs of inlined writes on both sides from one premise, as {@link VerbRaceDifferentialTest}
 * races them: stock DuckLake 1.5.5 with DATA_INLINING_ROW_LIMIT 10 runs both transactions before
 * the first commits; on our side the second closure's first run makes the first commit on another
 * thread and waits for it. The second lands exactly when stock DuckLake lands it, and afterwards
 * both catalogs hold the same ducklake_* rows and inlined tables.
 *
 * <p>Premise on both sides: table t (a INTEGER, b VARCHAR), id 1, with rows (1, 'x') and (2, 'y')
 * inlined in the transaction that created it (row ids 0 and 1).
 */
class InlinedRaceDifferentialTest {

  /** Our side of one commit, built once stock DuckLake has run (a flush reads stock's file). */
  interface Ours {
    CommitBody prepare(ReferenceDuckLake stock) throws Exception;
  }

  record Pair(
      String name,
      int files,
      String firstSql,
      Ours first,
      String secondSql,
      Ours second,
      boolean conflicts) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  private static Ours verbs(CommitBody body) {
    return stock -> body;
  }

  /**
   * A flush, as stock DuckLake's: the rows inlined at the premise both sides raced from (snapshot
   * 1) go into the data file stock DuckLake's flush wrote, registered with its footer's facts.
   * Where stock DuckLake refused the flush there is no file; ours then names a file of the rows it
   * sees, and must be refused just the same.
   */
  private static Ours flush() {
    return stock -> {
      // The flush's file holds the few inlined rows; the setup files hold 20 rows, a merge 40.
      List<Map<String, Object>> files =
          stock.rows("ducklake_data_file").stream()
              .filter(r -> ((Number) r.get("record_count")).longValue() < 20)
              .toList();
      NewDataFile file;
      if (files.isEmpty()) {
        file = NewDataFile.parquet("never-written.parquet", 2, 1, 1);
      } else {
        file = registration(stock, (String) files.get(0).get("path"));
      }
      InlineFlush flush = InlineFlush.of(file).through(1);
      return tx -> tx.flushInlined(1, flush);
    };
  }

  static List<Pair> pairs() {
    List<Pair> p = new ArrayList<>();
    p.add(
        new Pair(
            "inlined insert/inlined insert",
            0,
            "INSERT INTO t VALUES (3, 'z')",
            verbs(tx -> tx.insertInlined(1, List.of(row(3, "z")))),
            "INSERT INTO t VALUES (4, 'w'), (5, NULL)",
            verbs(tx -> tx.insertInlined(1, List.of(row(4, "w"), row(5, null)))),
            false));
    p.add(
        new Pair(
            "inlined delete/inlined delete of another row",
            0,
            "DELETE FROM t WHERE a = 1",
            verbs(tx -> tx.deleteRowInline(1, 0)),
            "DELETE FROM t WHERE a = 2",
            verbs(tx -> tx.deleteRowInline(1, 1)),
            true));
    p.add(
        new Pair(
            "inlined insert/inlined delete",
            0,
            "INSERT INTO t VALUES (3, 'z')",
            verbs(tx -> tx.insertInlined(1, List.of(row(3, "z")))),
            "DELETE FROM t WHERE a = 2",
            verbs(tx -> tx.deleteRowInline(1, 1)),
            true));
    p.add(
        new Pair(
            "flush/inlined insert",
            0,
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            "INSERT INTO t VALUES (3, 'z')",
            verbs(tx -> tx.insertInlined(1, List.of(row(3, "z")))),
            false));
    p.add(
        new Pair(
            "inlined insert/flush",
            0,
            "INSERT INTO t VALUES (3, 'z')",
            verbs(tx -> tx.insertInlined(1, List.of(row(3, "z")))),
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            false));
    p.add(
        new Pair(
            "inlined delete/flush",
            0,
            "DELETE FROM t WHERE a = 1",
            verbs(tx -> tx.deleteRowInline(1, 0)),
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            true));
    p.add(
        new Pair(
            "inlined update/inlined delete of the same row",
            0,
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            "DELETE FROM t WHERE a = 2",
            verbs(tx -> tx.deleteRowInline(1, 1)),
            true));
    p.add(
        new Pair(
            "inlined delete/inlined update of the same row",
            0,
            "DELETE FROM t WHERE a = 2",
            verbs(tx -> tx.deleteRowInline(1, 1)),
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            true));
    p.add(
        new Pair(
            "inlined update/inlined update of another row",
            0,
            "UPDATE t SET b = 'xx' WHERE a = 1",
            verbs(tx -> tx.updateRowInline(1, 0, row(1, "xx"))),
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            true));
    p.add(
        new Pair(
            "inlined insert/inlined update",
            0,
            "INSERT INTO t VALUES (3, 'z')",
            verbs(tx -> tx.insertInlined(1, List.of(row(3, "z")))),
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            true));
    p.add(
        new Pair(
            "inlined update/flush",
            0,
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            true));
    p.add(
        new Pair(
            "flush/inlined update",
            0,
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            "UPDATE t SET b = 'yy' WHERE a = 2",
            verbs(tx -> tx.updateRowInline(1, 1, row(2, "yy"))),
            true));
    // Table t also holds a data file of 20 rows, a = 0..19, row ids 2..21 (data file 1).
    p.add(
        new Pair(
            "delete file/inline delete of a row of the same file",
            1,
            "DELETE FROM t WHERE a < 15 AND b LIKE 'f%'",
            deleteFile(),
            "DELETE FROM t WHERE a = 17 AND b LIKE 'f%'",
            verbs(tx -> tx.deleteRowInline(1, 19)),
            false));
    p.add(
        new Pair(
            "inline delete of a file row/delete file of the same file",
            1,
            "DELETE FROM t WHERE a = 17 AND b LIKE 'f%'",
            verbs(tx -> tx.deleteRowInline(1, 19)),
            "DELETE FROM t WHERE a < 15 AND b LIKE 'f%'",
            deleteFile(),
            false));
    p.add(
        new Pair(
            "delete file/inline delete of an inlined row",
            1,
            "DELETE FROM t WHERE a < 15 AND b LIKE 'f%'",
            deleteFile(),
            "DELETE FROM t WHERE a = 2 AND b = 'y'",
            verbs(tx -> tx.deleteRowInline(1, 1)),
            false));
    p.add(
        new Pair(
            "compaction/flush",
            2,
            "CALL ducklake_merge_adjacent_files('lake')",
            merge(),
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            false));
    p.add(
        new Pair(
            "flush/compaction",
            2,
            "CALL ducklake_flush_inlined_data('lake')",
            flush(),
            "CALL ducklake_merge_adjacent_files('lake')",
            merge(),
            false));
    return p;
  }

  /** The delete file stock DuckLake wrote for the file's rows with {@code a < 15}. */
  private static Ours deleteFile() {
    return stock -> {
      Map<String, Object> row =
          stock.rows("ducklake_delete_file").stream()
              .filter(r -> ((Number) r.get("delete_count")).longValue() == 15)
              .findFirst()
              .orElseThrow();
      String path = (String) row.get("path");
      ParquetFacts f = ParquetFacts.read(stock, Path.of(stock.dataPath(), "main", "t", path));
      long target = ((Number) row.get("data_file_id")).longValue();
      return tx ->
          tx.registerDeleteFile(
              1, NewDeleteFile.parquet(target, path, 15, f.fileSize(), f.footerSize()));
    };
  }

  /**
   * Registers stock DuckLake's setup data file (the one begun at snapshot 2) and widens the table's
   * column statistics by its bounds, as stock DuckLake's INSERT does.
   */
  private static CommitBody setupFile(ReferenceDuckLake stock) throws Exception {
    NewDataFile file = fileBegunAt(stock, 2);
    return tx -> {
      tx.registerDataFile(1, file);
      // Inlined rows (1, 'x'), (2, 'y') and the file's a 0..19, b 'f0'..'f9' (as text).
      tx.updateColumnStats(
          1,
          1,
          Optional.of(false),
          Optional.empty(),
          Optional.of("0"),
          Optional.of("19"),
          Optional.empty());
      tx.updateColumnStats(
          1,
          2,
          Optional.of(false),
          Optional.empty(),
          Optional.of("f0"),
          Optional.of("y"),
          Optional.empty());
    };
  }

  /** The registration of stock DuckLake's setup data file begun at {@code snapshot}. */
  private static NewDataFile fileBegunAt(ReferenceDuckLake stock, long snapshot) throws Exception {
    Map<String, Object> row =
        stock.rows("ducklake_data_file").stream()
            .filter(r -> ((Number) r.get("begin_snapshot")).longValue() == snapshot)
            .filter(r -> r.get("partial_max") == null)
            .findFirst()
            .orElseThrow();
    return registration(stock, (String) row.get("path"));
  }

  /**
   * A data file of stock DuckLake's table t, registered with its footer's facts: statistics for
   * columns a and b (value counts without the nulls), none for DuckLake's internal columns.
   */
  private static NewDataFile registration(ReferenceDuckLake stock, String path) throws Exception {
    return ParquetFacts.read(stock, Path.of(stock.dataPath(), "main", "t", path))
        .registration(path, List.of("a", "b"));
  }

  /**
   * A merge of the two setup files, as stock DuckLake's: they go into the data file its merge wrote
   * (the one holding 40 rows). Where stock DuckLake refused the merge there is none; ours then
   * names a file of the 40 rows, and must be refused just the same.
   */
  private static Ours merge() {
    return stock -> {
      NewDataFile merged = NewDataFile.parquet("never-written.parquet", 40, 1, 1);
      for (Map<String, Object> r : stock.rows("ducklake_data_file")) {
        long records = ((Number) r.get("record_count")).longValue();
        if (records == 40) {
          merged = registration(stock, (String) r.get("path"));
        }
      }
      NewDataFile output = merged;
      // The inputs are the two setup files (begun at snapshots 2 and 3), named by their ids.
      return tx ->
          tx.mergeDataFiles(
              1,
              tx.premise().dataFiles(1).stream()
                  .filter(f -> f.beginSnapshot() == 2 || f.beginSnapshot() == 3)
                  .map(f -> f.dataFileId())
                  .toList(),
              output);
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void secondLandsExactlyWhenStockDuckLakeLandsIt_andTheRowsAgree(Pair pair, @TempDir Path dir)
      throws Exception {
    try (PairedLakes lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock"))
                .dataInliningRowLimit(10)
                .maxRetryCount(2)
                .retryWaitMillis(1),
            "inline-race")) {
      ReferenceDuckLake stock = lakes.stock;
      Catalog catalog = lakes.catalog;
      stock.executeAll(
          List.of(
              "BEGIN",
              "CREATE TABLE t (a INTEGER, b VARCHAR)",
              "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
              "COMMIT"));
      for (int k = 0; k < pair.files(); k++) {
        stock.execute(
            "INSERT INTO t SELECT range::INTEGER, 'f' || range FROM range("
                + 20 * k
                + ", "
                + (20 * k + 20)
                + ")");
      }
      // Our setup's registrations, read before the race: a merge removes its inputs' rows.
      CommitBody firstFile = pair.files() > 0 ? setupFile(stock) : null;
      NewDataFile secondFile = pair.files() > 1 ? fileBegunAt(stock, 3) : null;
      CommitOutcome stockSecond =
          CommitRace.onStock(
              stock,
              first -> first.execute(pair.firstSql()),
              second -> second.execute(pair.secondSql()),
              pair.conflicts());

      catalog.commit(
          tx -> {
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar")));
            tx.insertInlined(1, List.of(row(1, "x"), row(2, "y")));
          });
      if (firstFile != null) {
        catalog.commit(firstFile);
      }
      if (pair.files() > 1) {
        catalog.commit(tx -> tx.registerDataFile(1, secondFile));
      }
      long premise = catalog.snapshot().snapshotId();
      CommitBody first = pair.first().prepare(stock);
      CommitBody second = pair.second().prepare(stock);
      CommitRace.Ours ours =
          CommitRace.onOurs(lakes, first, second, List.of(CommitConflictException.class));
      assertEquals(ours.landed() ? 2 : 1, ours.runs(), "runs of the second closure");
      assertEquals(premise + 1 + (ours.landed() ? 1 : 0), catalog.snapshot().info().snapshotId());
      assertEquals(
          stockSecond.committed(),
          ours.landed(),
          "our second commit lands as stock DuckLake's " + ours.refusal());
      DuckLakeRowSet rows = lakes.ours();
      assertEquals(List.of(), RowComparison.differences(stock, rows));
      assertEquals(List.of(), InlinedRowComparison.differences(stock, rows));
    }
  }
}
