package dev.moraine.bench;

import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * The cost of one JNI crossing per key against one per logical step, for the shape of a catalog
 * commit: 40 keys staged in a transaction, and 40 keys read. Microseconds per whole step.
 *
 * <ul>
 *   <li>{@link #commit40Puts}: begin, 40 {@code put} calls, commit (42 crossings).
 *   <li>{@link #commit40PutAll}: begin, one {@code WriteBatch} of the same 40 puts handed over with
 *       {@code putAll}, commit (3 crossings). Building the batch is measured too: the engine pays
 *       it.
 *   <li>{@link #get40Singles}: 40 {@code get} calls of keys in the memtable.
 *   <li>{@link #getAll40}: one {@code getAll} of the same 40 keys.
 * </ul>
 *
 * <p>Keys are 16 bytes, values 100 bytes; commits cycle over 4,096 keys in groups of 40. Writes
 * return once applied, not durable; the WAL is flushed after every measurement iteration, outside
 * the measured time. Each benchmark checks its own result and throws on a wrong one.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class CrossingBenchmark {
  private static final int KEYS = 4096;
  private static final int PER_STEP = 40;
  private static final int VALUE_BYTES = 100;

  /** The object store under the writer. */
  @Param({"memory", "local"})
  public String objectStore;

  private BenchStore bench;
  private KvStore store;
  private byte[][] keys;
  private byte[] value;
  private List<byte[]> readKeys;
  private int next;

  @Setup(Level.Trial)
  public void open() {
    bench = BenchStore.open(BenchStore.Kind.parse(objectStore));
    store = bench.store();
    keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = String.format("bench-key-%06d", i).getBytes(StandardCharsets.US_ASCII);
    }
    value = new byte[VALUE_BYTES];
    new Random(42).nextBytes(value);
    WriteBatch preload = new WriteBatch();
    for (byte[] key : keys) {
      preload.put(key, value);
    }
    WriteReceipt receipt = store.write(preload);
    store.flushWal();
    store.awaitDurable(receipt);
    readKeys = new ArrayList<>();
    for (int i = 0; i < PER_STEP; i++) {
      // Spread over the key space, as a commit's reads would be.
      readKeys.add(keys[i * (KEYS / PER_STEP)]);
    }
  }

  @TearDown(Level.Iteration)
  public void flushBetweenIterations() {
    store.flushWal();
  }

  @TearDown(Level.Trial)
  public void close() {
    bench.close();
  }

  /** The first of the next 40 keys to write. */
  private int nextGroup() {
    next = (next + PER_STEP) % (KEYS - PER_STEP);
    return next;
  }

  private static WriteReceipt checked(WriteReceipt receipt) {
    if (receipt == null) {
      throw new IllegalStateException("a commit of 40 puts returned no receipt");
    }
    return receipt;
  }

  private byte[] checked(byte[] read) {
    if (read == null || read.length != VALUE_BYTES) {
      throw new IllegalStateException("a preloaded key read back wrong");
    }
    return read;
  }

  @Benchmark
  public WriteReceipt commit40Puts() {
    int first = nextGroup();
    try (KvTransaction txn = store.begin()) {
      for (int i = first; i < first + PER_STEP; i++) {
        txn.put(keys[i], value);
      }
      return checked(txn.commit());
    }
  }

  @Benchmark
  public WriteReceipt commit40PutAll() {
    int first = nextGroup();
    WriteBatch batch = new WriteBatch();
    for (int i = first; i < first + PER_STEP; i++) {
      batch.put(keys[i], value);
    }
    try (KvTransaction txn = store.begin()) {
      txn.putAll(batch);
      return checked(txn.commit());
    }
  }

  @Benchmark
  public int get40Singles() {
    int bytes = 0;
    for (byte[] key : readKeys) {
      bytes += checked(store.get(key)).length;
    }
    return bytes;
  }

  @Benchmark
  public int getAll40() {
    List<byte[]> values = store.getAll(readKeys);
    if (values.size() != PER_STEP) {
      throw new IllegalStateException("getAll returned " + values.size() + " values for 40 keys");
    }
    int bytes = 0;
    for (byte[] read : values) {
      bytes += checked(read).length;
    }
    return bytes;
  }
}
