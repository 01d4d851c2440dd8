package dev.moraine.bench;

import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.nio.charset.StandardCharsets;
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
 * Single-threaded latency of the store binding's basic operations, on an in-memory and on a
 * local-directory object store, all in microseconds per operation so the figures compare directly:
 *
 * <ul>
 *   <li>{@link #nativeCallFloor}: the cheapest call into the native library (reading the durable
 *       sequence number): the JNI crossing with next to no work behind it.
 *   <li>{@link #get}: a small point read of a key in the memtable.
 *   <li>{@link #put}: a small one-key write, returning once applied, not waiting for durability.
 *   <li>{@link #durablePut}: the same write, then an explicit WAL flush, then waiting for the write
 *       to be durable (the flush timer is off, so nothing else flushes).
 *   <li>{@link #txnCommit}: begin a transaction, buffer one small put, commit (applied, not
 *       durable).
 *   <li>{@link #durableTxnCommit}: the same commit made durable with an explicit WAL flush: what
 *       the store alone costs one lone durable catalog commit.
 * </ul>
 *
 * <p>Keys are 16 bytes, values 100 bytes; writes cycle over 4,096 keys. The WAL is flushed after
 * every measurement iteration, outside the measured time, so unflushed writes do not pile up.
 *
 * <p>Every benchmark checks its own result and throws {@link IllegalStateException} when it is
 * wrong (a read that finds nothing, a write without a receipt or whose sequence number does not
 * advance), so a broken store fails the run (the build runs JMH with {@code -foe true}) instead of
 * producing a fast figure for doing nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class StoreBenchmark {
  private static final int KEYS = 4096;
  private static final int VALUE_BYTES = 100;

  /** The object store under the writer. */
  @Param({"memory", "local", "local-nofsync"})
  public String objectStore;

  private BenchStore bench;
  private KvStore store;
  private byte[][] keys;
  private byte[] value;
  private byte[] readKey;
  private int next;

  /** The highest sequence number a write returned so far: each write must pass it. */
  private long lastSeqnum;

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
    readKey = keys[KEYS / 2];
    WriteBatch preload = new WriteBatch();
    for (byte[] key : keys) {
      preload.put(key, value);
    }
    WriteReceipt receipt = checked(store.write(preload));
    store.flushWal();
    store.awaitDurable(receipt);
  }

  @TearDown(Level.Iteration)
  public void flushBetweenIterations() {
    store.flushWal();
  }

  @TearDown(Level.Trial)
  public void close() {
    bench.close();
  }

  private byte[] nextKey() {
    next = (next + 1) & (KEYS - 1);
    return keys[next];
  }

  /** {@code receipt}, checked: present, and later than every earlier write's. */
  private WriteReceipt checked(WriteReceipt receipt) {
    if (receipt == null || receipt.seqnum() <= lastSeqnum) {
      throw new IllegalStateException(
          "a write returned " + receipt + " after sequence number " + lastSeqnum);
    }
    lastSeqnum = receipt.seqnum();
    return receipt;
  }

  /** {@code receipt}, checked, and the store's durable sequence number covers it. */
  private WriteReceipt checkedDurable(WriteReceipt receipt) {
    long durable = store.durableSeqnum();
    if (durable < receipt.seqnum()) {
      throw new IllegalStateException(
          "write " + receipt.seqnum() + " returned from its wait but durable is " + durable);
    }
    return receipt;
  }

  @Benchmark
  public long nativeCallFloor() {
    long durable = store.durableSeqnum();
    if (durable < 0) {
      throw new IllegalStateException("negative durable sequence number " + durable);
    }
    return durable;
  }

  @Benchmark
  public byte[] get() {
    byte[] read = store.get(readKey);
    if (read == null || read.length != VALUE_BYTES) {
      throw new IllegalStateException(
          "a preloaded key read as " + (read == null ? null : read.length + " bytes"));
    }
    return read;
  }

  @Benchmark
  public WriteReceipt put() {
    return checked(store.write(new WriteBatch().put(nextKey(), value)));
  }

  @Benchmark
  public WriteReceipt durablePut() {
    WriteReceipt receipt = checked(store.write(new WriteBatch().put(nextKey(), value)));
    store.flushWal();
    store.awaitDurable(receipt);
    return checkedDurable(receipt);
  }

  @Benchmark
  public WriteReceipt txnCommit() {
    try (KvTransaction txn = store.begin()) {
      txn.put(nextKey(), value);
      return checked(txn.commit());
    }
  }

  @Benchmark
  public WriteReceipt durableTxnCommit() {
    WriteReceipt receipt;
    try (KvTransaction txn = store.begin()) {
      txn.put(nextKey(), value);
      receipt = checked(txn.commit());
    }
    store.flushWal();
    store.awaitDurable(receipt);
    return checkedDurable(receipt);
  }
}
