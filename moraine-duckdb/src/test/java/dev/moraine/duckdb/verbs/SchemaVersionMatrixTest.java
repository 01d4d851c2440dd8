package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.reference.ReferenceSnapshot;
import dev.moraine.duckdb.verbs.VerbKindWorkload.Step;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema-version matrix: for every verb kind, whether its commit bumps {@code schema_version}
 * and whether it writes a {@code ducklake_schema_versions} row, pinned in one table ({@link
 * VerbKindWorkload}) and checked, row by row, against what stock DuckLake 1.5.5 does for the
 * corresponding SQL.
 *
 * <p>The rows run in order on one pair of lakes (ours on real SlateDB, stock DuckLake with inlining
 * off), each row one commit on each side, so a row's objects are those earlier rows made. A row
 * whose verb has no SQL counterpart in DuckDB 1.5.5 (moving a table between schemas, altering a
 * view in place, tags other than comments, expiring files, statistics alone) is checked on our side
 * only, against the value RFC 0004 §3 gives; its name says so.
 */
class SchemaVersionMatrixTest {
  @TempDir static Path dir;

  private static PairedLakes lakes;
  private static ReferenceDuckLake stock;
  private static Catalog catalog;

  private static final VerbKindWorkload WORKLOAD = new VerbKindWorkload();

  @BeforeAll
  static void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0), "sv-matrix");
    stock = lakes.stock;
    catalog = lakes.catalog;
  }

  @AfterAll
  static void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  static List<Step> matrix() {
    return WORKLOAD.steps();
  }

  /** Our head's schema_version and snapshot id, and our count of schema_versions rows. */
  private record Ours(long snapshotId, long schemaVersion, int versionRows) {
    static Ours now() {
      var snapshot = catalog.snapshot();
      return new Ours(
          snapshot.snapshotId(),
          snapshot.info().schemaVersion(),
          DuckLakeRowRenderer.render(snapshot).rows("ducklake_schema_versions").size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matrix")
  void verbKind_bumpsSchemaVersion_asStockDuckLakeDoes(Step row) throws Exception {
    // Stock DuckLake first, so that a row our side gets wrong still leaves both lakes in step.
    List<Executable> checks = new ArrayList<>();
    if (row.sql() != null) {
      ReferenceSnapshot stockBefore = stock.latestSnapshot();
      int stockRowsBefore = stock.rows("ducklake_schema_versions").size();
      try (ReferenceSession session = stock.session()) {
        session.executeAll(row.sql());
      }
      ReferenceSnapshot stockAfter = stock.latestSnapshot();
      int stockRowsAfter = stock.rows("ducklake_schema_versions").size();
      checks.add(
          () ->
              assertEquals(
                  row.mints(),
                  stockAfter.snapshotId() > stockBefore.snapshotId(),
                  "stock DuckLake mints a snapshot"));
      checks.add(
          () ->
              assertEquals(
                  row.bumps() ? 1 : 0,
                  stockAfter.schemaVersion() - stockBefore.schemaVersion(),
                  "stock DuckLake's bump"));
      checks.add(
          () ->
              assertEquals(
                  row.recordsVersion(),
                  stockRowsAfter > stockRowsBefore,
                  "stock DuckLake writes a schema_versions row"));
    }
    Ours before = Ours.now();
    Consumer<Transaction> ours = row.ours().prepare(stock);
    catalog.commit(ours::accept);
    Ours after = Ours.now();
    checks.add(
        () ->
            assertEquals(
                row.mints(), after.snapshotId() > before.snapshotId(), "ours mints a snapshot"));
    checks.add(
        () ->
            assertEquals(
                row.bumps() ? 1 : 0, after.schemaVersion() - before.schemaVersion(), "our bump"));
    checks.add(
        () ->
            assertEquals(
                row.recordsVersion(),
                after.versionRows() > before.versionRows(),
                "ours writes a schema_versions row"));
    assertAll(row.toString(), checks);
  }
}
