package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import dev.moraine.duckdb.verbs.VerbKindWorkload.Kind;
import dev.moraine.duckdb.verbs.VerbKindWorkload.Step;
import dev.moraine.ducklake.rows.ColumnDef;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time-travel matrix: after a workload of every verb kind ({@link VerbKindWorkload}), the
 * catalog at every snapshot id, and at instants between commits, is the state that snapshot's
 * commit left. Checked two ways:
 *
 * <ul>
 *   <li>against our own record: the dump taken right after each commit equals the dump of {@code
 *       snapshotAt(id)} at the end, in the catalog that wrote the history and in one opened afresh
 *       from the store;
 *   <li>against stock DuckLake: for the steps stock DuckLake has SQL for, run alone on a fresh pair
 *       of lakes so that both sides number their snapshots alike, our ducklake_* rows at every
 *       snapshot equal stock DuckLake's rows visible at that version.
 * </ul>
 *
 * <p>What is not compared, and why: options (outside the snapshot protocol on both sides: last
 * write wins, no snapshot range), table and table-column statistics (DuckLake keeps one current row
 * per table and column, with no snapshot range, and so do we; a past snapshot shows the statistics
 * as they are now, in either implementation) and the {@code end_snapshot} of rows visible at a
 * version (a row that ends later shows that later end in stock DuckLake's tables, and no end in our
 * rendering of the earlier snapshot). Catalog tables that carry no snapshot at all (metadata, file
 * column statistics, files scheduled for deletion) are not part of time travel.
 */
class TimeTravelMatrixTest {
  @TempDir Path dir;

  /** A pair of lakes: stock DuckLake and ours on an in-memory SlateDB that can be reopened. */
  private static final class Lakes implements AutoCloseable {
    final ReferenceDuckLake stock;
    final String name = "time-travel-" + UUID.randomUUID();
    final StoreConfig config = StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake");
    final KvStore store;
    final Catalog catalog;

    Lakes(Path dir) throws Exception {
      stock = ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0).open();
      store = new SlateStoreProvider(config).openWriter();
      catalog = Catalog.open(store, options());
    }

    static CatalogOptions options() {
      // Stock runs with inlining off: no inlined-data tables on either side.
      return CatalogOptions.defaults().withDataPath("/somewhere/data/").withDataInliningRowLimit(0);
    }

    /** Runs one step on both sides, the SQL first; returns our new head's id. */
    long run(Step step) throws Exception {
      if (step.sql() != null) {
        try (ReferenceSession session = stock.session()) {
          session.executeAll(step.sql());
        }
      }
      Consumer<Transaction> ours = step.ours().prepare(stock);
      return catalog.commit(ours::accept);
    }

    @Override
    public void close() throws Exception {
      try {
        catalog.close();
        store.close();
      } finally {
        ObjectStoreSpec.dropInMemory(name);
        stock.close();
      }
    }
  }

  /** What the catalog showed right after a commit. */
  private record Left(long snapshotId, Instant time, String dump) {}

  /**
   * A dump without what is not versioned: the head it was taken at, the options (outside the
   * snapshot protocol, last write wins) and table and table-column statistics.
   */
  static String versionedPart(String dump) {
    return dump.replaceFirst("\"head\":\\d+", "\"head\":\"<now>\"")
        .replaceFirst("\"options\":\\[[^\\]]*\\]", "\"options\":\"<now>\"")
        .replaceAll("\"stats\":\\{[^}]*\\}", "\"stats\":\"<current>\"")
        .replaceAll("\"column_stats\":\\[[^\\]]*\\]", "\"column_stats\":\"<current>\"");
  }

  @Test
  void everySnapshotAndInstant_resolvesToTheStateItsCommitLeft() throws Exception {
    List<Left> left = new ArrayList<>();
    try (Lakes lakes = new Lakes(dir)) {
      left.add(snapshotLeft(lakes.catalog, 0));
      for (Step step : new VerbKindWorkload().steps()) {
        long before = lakes.catalog.head().snapshotId();
        long id = lakes.run(step);
        if (id != before) {
          left.add(snapshotLeft(lakes.catalog, id));
        }
      }
      assertEquals(
          left.size() - 1, lakes.catalog.head().snapshotId(), "one snapshot per minting step");
      checkAll("the catalog that wrote the history", lakes.catalog, left);
      lakes.catalog.close();
      lakes.store.close();
      try (KvStore reopened = new SlateStoreProvider(lakes.config).openWriter();
          Catalog again = Catalog.open(reopened, Lakes.options())) {
        checkAll("a catalog opened afresh", again, left);
      }
    }
  }

  private static Left snapshotLeft(Catalog catalog, long id) {
    return new Left(id, catalog.snapshotAt(id).info().time(), CatalogDump.atToString(catalog, id));
  }

  /** Every snapshot by id and by instant (at, between and before commits) resolves as recorded. */
  private static void checkAll(String which, Catalog catalog, List<Left> left) {
    List<Executable> checks = new ArrayList<>();
    for (int i = 0; i < left.size(); i++) {
      Left l = left.get(i);
      checks.add(
          () ->
              assertEquals(
                  versionedPart(l.dump()),
                  versionedPart(CatalogDump.atToString(catalog, l.snapshotId())),
                  which + ": snapshot " + l.snapshotId() + " by id"));
      checks.add(
          () ->
              assertEquals(
                  l.snapshotId(),
                  catalog.snapshotAsOf(l.time()).snapshotId(),
                  which + ": the instant of snapshot " + l.snapshotId()));
      if (i + 1 < left.size()) {
        Instant next = left.get(i + 1).time();
        // Snapshot times strictly increase (RFC 0004 §8.1 item 4), so the instant just before the
        // next commit's belongs to this one.
        Instant between = next.minus(1, ChronoUnit.MICROS);
        checks.add(
            () ->
                assertEquals(
                    l.snapshotId(),
                    catalog.snapshotAsOf(between).snapshotId(),
                    which + ": the instant before snapshot " + (l.snapshotId() + 1)));
      }
    }
    Instant first = left.get(0).time();
    checks.add(
        () ->
            assertEquals(
                ErrorCode.NOT_FOUND,
                assertThrows(
                        NotFoundException.class,
                        () -> catalog.snapshotAsOf(first.minus(1, ChronoUnit.MICROS)))
                    .code(),
                which + ": an instant before the first snapshot"));
    checks.add(
        () ->
            assertEquals(
                ErrorCode.NOT_FOUND,
                assertThrows(NotFoundException.class, () -> catalog.snapshotAt(left.size())).code(),
                which + ": an id after the head"));
    assertAll(which, checks);
  }

  /** The catalog tables compared at a version: every one that carries a snapshot column. */
  private static final Set<String> UNVERSIONED =
      Set.of("ducklake_table_stats", "ducklake_table_column_stats");

  @Test
  void everySnapshot_showsTheRowsStockDuckLakeShowsAtThatVersion() throws Exception {
    try (Lakes lakes = new Lakes(dir)) {
      List<Long> ids = new ArrayList<>();
      ids.add(0L);
      for (Step step : new VerbKindWorkload().steps()) {
        if (step.kind() != Kind.STOCK) {
          continue;
        }
        long before = lakes.catalog.head().snapshotId();
        long id = lakes.run(step);
        assertEquals(
            lakes.stock.latestSnapshot().snapshotId(), id, "both sides number snapshots alike");
        if (id != before) {
          ids.add(id);
        }
      }
      List<Executable> checks = new ArrayList<>();
      for (long id : ids) {
        DuckLakeRowSet ours = DuckLakeRowRenderer.render(lakes.catalog.snapshotAt(id));
        for (TableDef def : DuckLakeTables.ALL) {
          Predicate<Map<String, Object>> visible = visibleAt(def, id);
          if (visible == null || UNVERSIONED.contains(def.name())) {
            continue;
          }
          List<String> theirs =
              lakes.stock.rows(def.name()).stream()
                  .filter(visible)
                  .map(r -> normalised(def, r))
                  .sorted()
                  .toList();
          List<String> mine =
              ours.rows(def.name()).stream()
                  .map(RowComparison::asMap)
                  .filter(visible)
                  .map(r -> normalised(def, r))
                  .sorted()
                  .toList();
          checks.add(() -> assertEquals(theirs, mine, def.name() + " at snapshot " + id));
        }
      }
      assertAll(checks);
    }
  }

  /**
   * Which rows of {@code def} hold at snapshot {@code id}: begun at or before it and not ended by
   * it, or (snapshot tables) made at or before it; null for a table without snapshot columns.
   */
  private static Predicate<Map<String, Object>> visibleAt(TableDef def, long id) {
    Set<String> columns = def.columns().stream().map(ColumnDef::name).collect(Collectors.toSet());
    if (columns.contains("begin_snapshot")) {
      boolean ends = columns.contains("end_snapshot");
      return r ->
          number(r.get("begin_snapshot")) <= id
              && (!ends || r.get("end_snapshot") == null || number(r.get("end_snapshot")) > id);
    }
    if (columns.contains("snapshot_id")) {
      return r -> number(r.get("snapshot_id")) <= id;
    }
    return null;
  }

  private static long number(Object value) {
    return ((Number) value).longValue();
  }

  /** {@link RowComparison#normalised} with {@code end_snapshot} left out (see the class doc). */
  private static String normalised(TableDef def, Map<String, Object> row) {
    Map<String, Object> copy = new LinkedHashMap<>(row);
    if (copy.containsKey("end_snapshot")) {
      copy.put("end_snapshot", null);
    }
    return RowComparison.normalised(def, copy);
  }
}
