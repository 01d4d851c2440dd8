package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.store.FaultInjector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One uncontended commit against the store's own floor for the same guarantee, same store, same
 * run, in microseconds per operation:
 *
 * <ul>
 *   <li>{@link #floorDurablePut}: a one-key transaction committed, the log flushed, the write
 *       durable: what the store costs a durable write.
 *   <li>{@link #floorDurablePutAndCheckpoint}: the same, then a durable checkpoint created: the
 *       guarantee a published commit gives (the checkpoint is deleted after each operation, outside
 *       the measured time, so the manifest does not grow over the run).
 *   <li>{@link #commit}: {@code Catalog.commit} registering one data file, flush spacing zero,
 *       publication on: to be divided by {@link #floorDurablePutAndCheckpoint}.
 *   <li>{@link #commitWithoutPublication}: the same with publication off: to be divided by {@link
 *       #floorDurablePut}.
 * </ul>
 *
 * <p>Each benchmark checks its result (a snapshot id that grows, a durable write) and throws when
 * it is wrong, so the build's short run fails on a broken path instead of timing nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class CommitLatencyBenchmark {
  @Param({"memory", "local", "local-nofsync"})
  public String objectStore;

  private FaultInjector injector;
  private BenchStore floorStore;
  private BenchStore publishedStore;
  private BenchStore unpublishedStore;
  private Catalog published;
  private Catalog unpublished;
  private long table;
  private long lastSnapshot;
  private long files;
  private CheckpointId checkpoint;
  private final byte[] key = "floor-key".getBytes(StandardCharsets.UTF_8);
  private final byte[] value = new byte[100];

  @Setup(Level.Trial)
  public void open() {
    injector = new FaultInjector();
    floorStore = BenchStore.open(objectStore, injector);
    publishedStore = BenchStore.open(objectStore, injector);
    unpublishedStore = BenchStore.open(objectStore, injector);
    CatalogOptions options = CatalogOptions.defaults().withFlushSpacing(Duration.ZERO);
    published = Catalog.open(publishedStore.store(), options);
    unpublished = Catalog.open(unpublishedStore.store(), options.withCheckpointPublication(false));
    table = createTable(published);
    if (createTable(unpublished) != table) {
      throw new IllegalStateException("the two catalogs numbered their tables apart");
    }
  }

  private static long createTable(Catalog catalog) {
    long[] id = new long[1];
    catalog.commit(tx -> id[0] = tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
    return id[0];
  }

  @TearDown(Level.Trial)
  public void close() {
    published.close();
    unpublished.close();
    publishedStore.close();
    unpublishedStore.close();
    floorStore.close();
    injector.close();
  }

  private WriteReceipt durableWrite() {
    KvStore store = floorStore.store();
    WriteReceipt receipt;
    try (KvTransaction tx = store.begin()) {
      tx.put(key, value);
      receipt = tx.commit();
    }
    store.flushWal();
    if (store.durableSeqnum() < receipt.seqnum()) {
      throw new IllegalStateException("the flushed write is not durable");
    }
    return receipt;
  }

  @Benchmark
  public long floorDurablePut() {
    return durableWrite().seqnum();
  }

  @Benchmark
  public long floorDurablePutAndCheckpoint() {
    long seqnum = durableWrite().seqnum();
    checkpoint = floorStore.store().createCheckpoint(Duration.ofHours(1));
    return seqnum;
  }

  /** Deletes the floor's checkpoint after each operation, outside the measured time. */
  @TearDown(Level.Invocation)
  public void dropCheckpoint() {
    if (checkpoint != null) {
      floorStore.store().deleteCheckpoint(checkpoint);
      checkpoint = null;
    }
  }

  @Benchmark
  public long commit() {
    return check(commitOne(published));
  }

  @Benchmark
  public long commitWithoutPublication() {
    return check(commitOne(unpublished));
  }

  private long commitOne(Catalog catalog) {
    String path = "f" + (files++) + ".parquet";
    return catalog.commit(
        tx -> tx.registerDataFile(table, NewDataFile.parquet(path, 10, 900, 300)));
  }

  private long check(long snapshot) {
    if (snapshot <= 0) {
      throw new IllegalStateException("the commit minted no snapshot");
    }
    lastSnapshot = snapshot;
    return snapshot;
  }
}
