package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Moraine's side of the stock DuckLake comparison: one writer {@link Catalog} on a fresh store,
 * appenders committing small inlined inserts into one shared table through it, each commit {@code
 * insertInlined} of the same rows the stock side inserts. Every commit returns once durable and,
 * with publication on (the catalog's default), covered by a published checkpoint.
 *
 * <p>The store is a local directory with every write fsynced, or an S3-compatible endpoint behind a
 * fault injector that delays every PUT.
 */
final class MoraineAppends implements AutoCloseable {
  private final KvStore store;
  private final Catalog catalog;
  private final FaultInjector injector;
  private final long table;
  private final AtomicLongArray bodyRuns;

  private MoraineAppends(
      KvStore store, Catalog catalog, FaultInjector injector, long table, int appenders) {
    this.store = store;
    this.catalog = catalog;
    this.injector = injector;
    this.table = table;
    this.bodyRuns = new AtomicLongArray(appenders);
  }

  /**
   * Opens a catalog on {@code spec} (wrapped in a fault injector delaying each PUT by {@code
   * putLatency} unless that is zero) with the given flush spacing and checkpoint publication, and
   * creates the shared table.
   */
  static MoraineAppends open(
      ObjectStoreSpec spec,
      String path,
      Duration putLatency,
      Duration spacing,
      boolean publish,
      int appenders) {
    FaultInjector injector = null;
    ObjectStoreSpec effective = spec;
    if (!putLatency.isZero()) {
      injector = new FaultInjector();
      injector.latency(putLatency, Duration.ZERO);
      effective = ObjectStoreSpec.faulty(spec, injector);
    }
    KvStore store = null;
    Catalog catalog = null;
    try {
      store =
          new SlateStoreProvider(
                  StoreConfig.of(effective, path)
                      .withSettings(StoreSettings.defaults().withFlushTimerOff()))
              .openWriter();
      catalog =
          Catalog.open(
              store,
              CatalogOptions.defaults()
                  .withFlushSpacing(spacing)
                  .withCheckpointPublication(publish));
      long table =
          catalog
              .commitReturning(
                  tx ->
                      tx.createTable(
                          0,
                          StockDuckLake.TABLE,
                          List.of(
                              ColumnDef.of("appender", "int32"),
                              ColumnDef.of("seq", "int64"),
                              ColumnDef.of("note", "varchar"))))
              .value();
      return new MoraineAppends(store, catalog, injector, table, appenders);
    } catch (RuntimeException e) {
      RuntimeException closing = closeAll(catalog, store, injector);
      if (closing != null) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /**
   * The appender with index {@code i}: each call commits {@code rows} inlined rows and reports the
   * runs of its body beyond the first (a body runs again only after a lost race).
   */
  AppendLoad.Appender appender(int i, int rows) {
    return seq -> {
      List<List<Object>> values = new ArrayList<>(rows);
      for (int k = 0; k < rows; k++) {
        long value = seq * rows + k;
        values.add(List.of(i, value, StockDuckLakeBench.note(i, value)));
      }
      long before = bodyRuns.get(i);
      catalog.commit(
          tx -> {
            bodyRuns.incrementAndGet(i);
            tx.insertInlined(table, values);
          });
      return (int) (bodyRuns.get(i) - before - 1);
    };
  }

  /** What the commit path has done so far. */
  CommitStatistics statistics() {
    return catalog.commitStatistics();
  }

  /** The shared table's record count at the head. */
  long rows() {
    return catalog.snapshot().tableStats(table).orElseThrow().recordCount();
  }

  @Override
  public void close() {
    RuntimeException failure = closeAll(catalog, store, injector);
    if (failure != null) {
      throw failure;
    }
  }

  /** Closes each in turn; the first failure, or null. */
  private static RuntimeException closeAll(Catalog catalog, KvStore store, FaultInjector injector) {
    RuntimeException first = null;
    for (AutoCloseable c : new AutoCloseable[] {catalog, store, injector}) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      } catch (Exception e) {
        first = first == null ? new IllegalStateException(e) : first;
      }
    }
    return first;
  }
}
