package dev.moraine.store.commit;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.ReadDurability;
import dev.moraine.core.kv.ScanOrder;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link KvStore} that hands every write to the real store unchanged and, for each, keeps the
 * whole store's contents just before and just after it together with the operations it carried: a
 * {@link Landed} per batch that reached the store, and one per refused transaction commit (whose
 * contents must not have moved). {@link CommitDiffOracle} judges them. It also counts the entries
 * the catalog's reads return (through the store, its snapshots and its transactions), which is how
 * a test sees how much of the catalog a commit read.
 *
 * <p>Concurrency: {@link #writeLock} is held from the scan before a write to the scan after it, and
 * every write of the catalog goes through this class, so no other write can land between the two
 * scans: the difference between them is this write's alone. Preparation (reads, closures, staging)
 * runs outside the lock, so concurrent commits still race each other exactly as they would on the
 * bare store; only their submissions are ordered, which the store does anyway.
 */
final class RecordingKvStore implements KvStore {
  /** One write and the store around it. {@code refused} is true for a commit that threw. */
  record Landed(
      NavigableMap<byte[], byte[]> before,
      NavigableMap<byte[], byte[]> after,
      List<WriteBatch.Op> ops,
      boolean refused) {}

  private final KvStore store;
  private final ReentrantLock writeLock = new ReentrantLock();
  // Entries handed to the catalog by reads through this store, its snapshots and transactions.
  private final java.util.concurrent.atomic.AtomicLong entriesRead =
      new java.util.concurrent.atomic.AtomicLong();
  // Guarded by writeLock: appended only while the lock is held, read after the writers are done.
  private final List<Landed> landed = new ArrayList<>();

  RecordingKvStore(KvStore store) {
    this.store = store;
  }

  /** Every write so far, in the order it reached the store. */
  List<Landed> landed() {
    writeLock.lock();
    try {
      return Collections.unmodifiableList(new ArrayList<>(landed));
    } finally {
      writeLock.unlock();
    }
  }

  /** How many entries reads have returned so far: one per key got or scanned. */
  long entriesRead() {
    return entriesRead.get();
  }

  /** Forgets the writes recorded so far (the bootstrap, say). */
  void clear() {
    writeLock.lock();
    try {
      landed.clear();
    } finally {
      writeLock.unlock();
    }
  }

  /** Every key and value of the store, in key order. */
  NavigableMap<byte[], byte[]> contents() {
    NavigableMap<byte[], byte[]> all = new TreeMap<>(Arrays::compareUnsigned);
    try (KvIterator it = store.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        all.put(kv.key(), kv.value());
      }
    }
    return all;
  }

  private byte[] counted(byte[] value) {
    entriesRead.incrementAndGet();
    return value;
  }

  private List<byte[]> counted(List<byte[]> values) {
    entriesRead.addAndGet(values.size());
    return values;
  }

  private KvIterator counted(KvIterator it) {
    return new KvIterator() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public KeyValue next() {
        KeyValue kv = it.next();
        entriesRead.incrementAndGet();
        return kv;
      }

      @Override
      public void close() {
        it.close();
      }
    };
  }

  private interface Submission<T> {
    T submit();
  }

  private <T> T recorded(List<WriteBatch.Op> ops, Submission<T> submission) {
    writeLock.lock();
    try {
      NavigableMap<byte[], byte[]> before = contents();
      T result;
      try {
        result = submission.submit();
      } catch (RuntimeException refused) {
        landed.add(new Landed(before, contents(), List.copyOf(ops), true));
        throw refused;
      }
      landed.add(new Landed(before, contents(), List.copyOf(ops), false));
      return result;
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    return recorded(batch.ops(), () -> store.write(batch));
  }

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    List<WriteBatch.Op> ops = new ArrayList<>();
    batches.forEach(b -> ops.addAll(b.ops()));
    return recorded(ops, () -> store.writeAll(batches));
  }

  @Override
  public KvTransaction begin() {
    return new Recording(store.begin());
  }

  /** A transaction whose buffered writes are mirrored, to be recorded with its commit. */
  private final class Recording implements KvTransaction {
    private final KvTransaction tx;
    // Confined to the thread running the commit, like the transaction itself.
    private final List<WriteBatch.Op> ops = new ArrayList<>();

    Recording(KvTransaction tx) {
      this.tx = tx;
    }

    @Override
    public void put(byte[] key, byte[] value) {
      tx.put(key, value);
      ops.add(new WriteBatch.Op(key.clone(), value.clone()));
    }

    @Override
    public void delete(byte[] key) {
      tx.delete(key);
      ops.add(new WriteBatch.Op(key.clone(), null));
    }

    @Override
    public void putAll(WriteBatch batch) {
      tx.putAll(batch);
      ops.addAll(batch.ops());
    }

    @Override
    public WriteReceipt commit() {
      return recorded(ops, tx::commit);
    }

    @Override
    public void close() {
      tx.close();
    }

    @Override
    public byte[] get(byte[] key, ReadDurability durability) {
      return counted(tx.get(key, durability));
    }

    @Override
    public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
      return counted(tx.scan(range, order, durability));
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
      return counted(tx.getAll(keys, durability));
    }
  }

  @Override
  public KvSnapshot snapshot() {
    KvSnapshot snapshot = store.snapshot();
    return new KvSnapshot() {
      @Override
      public byte[] get(byte[] key, ReadDurability durability) {
        return counted(snapshot.get(key, durability));
      }

      @Override
      public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
        return counted(snapshot.scan(range, order, durability));
      }

      @Override
      public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
        return counted(snapshot.getAll(keys, durability));
      }

      @Override
      public void close() {
        snapshot.close();
      }
    };
  }

  @Override
  public void flushWal() {
    store.flushWal();
  }

  @Override
  public void awaitDurable(WriteReceipt receipt) {
    store.awaitDurable(receipt);
  }

  @Override
  public boolean awaitDurable(WriteReceipt receipt, Duration timeout) {
    return store.awaitDurable(receipt, timeout);
  }

  @Override
  public CompletableFuture<Void> durableFuture(WriteReceipt receipt) {
    return store.durableFuture(receipt);
  }

  @Override
  public long durableSeqnum() {
    return store.durableSeqnum();
  }

  @Override
  public CheckpointId createCheckpoint(Duration lifetime) {
    return store.createCheckpoint(lifetime);
  }

  @Override
  public void close() {
    store.close();
  }

  @Override
  public byte[] get(byte[] key, ReadDurability durability) {
    return counted(store.get(key, durability));
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
    return counted(store.scan(range, order, durability));
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
    return counted(store.getAll(keys, durability));
  }
}
