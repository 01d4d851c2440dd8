package dev.moraine.store.catalog;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.ReadDurability;
import dev.moraine.core.kv.ScanOrder;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A decorator over a real store that counts what passes through it: keys read by point reads, range
 * scans opened, records returned by scans, and operations written (by batches and transactions
 * alike). Reads through the store's snapshots and transactions are counted too.
 */
final class CountingKvStore implements KvStore {
  final AtomicLong pointReads = new AtomicLong();
  final AtomicLong scans = new AtomicLong();
  final AtomicLong scanned = new AtomicLong();
  final AtomicLong writes = new AtomicLong();

  private final KvStore delegate;

  CountingKvStore(KvStore delegate) {
    this.delegate = delegate;
  }

  void reset() {
    pointReads.set(0);
    scans.set(0);
    scanned.set(0);
    writes.set(0);
  }

  /** Every record read, by point or scan. */
  long recordsRead() {
    return pointReads.get() + scanned.get();
  }

  @Override
  public byte[] get(byte[] key, ReadDurability durability) {
    pointReads.incrementAndGet();
    return delegate.get(key, durability);
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
    return counted(delegate.scan(range, order, durability));
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
    pointReads.addAndGet(keys.size());
    return delegate.getAll(keys, durability);
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    writes.addAndGet(batch.size());
    return delegate.write(batch);
  }

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    batches.forEach(b -> writes.addAndGet(b.size()));
    return delegate.writeAll(batches);
  }

  @Override
  public KvTransaction begin() {
    KvTransaction tx = delegate.begin();
    return new KvTransaction() {
      @Override
      public byte[] get(byte[] key, ReadDurability durability) {
        pointReads.incrementAndGet();
        return tx.get(key, durability);
      }

      @Override
      public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
        return counted(tx.scan(range, order, durability));
      }

      @Override
      public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
        pointReads.addAndGet(keys.size());
        return tx.getAll(keys, durability);
      }

      @Override
      public void put(byte[] key, byte[] value) {
        writes.incrementAndGet();
        tx.put(key, value);
      }

      @Override
      public void delete(byte[] key) {
        writes.incrementAndGet();
        tx.delete(key);
      }

      @Override
      public void putAll(WriteBatch batch) {
        writes.addAndGet(batch.size());
        tx.putAll(batch);
      }

      @Override
      public WriteReceipt commit() {
        return tx.commit();
      }

      @Override
      public void close() {
        tx.close();
      }
    };
  }

  @Override
  public KvSnapshot snapshot() {
    KvSnapshot s = delegate.snapshot();
    return new KvSnapshot() {
      @Override
      public byte[] get(byte[] key, ReadDurability durability) {
        pointReads.incrementAndGet();
        return s.get(key, durability);
      }

      @Override
      public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
        return counted(s.scan(range, order, durability));
      }

      @Override
      public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
        pointReads.addAndGet(keys.size());
        return s.getAll(keys, durability);
      }

      @Override
      public void close() {
        s.close();
      }
    };
  }

  private KvIterator counted(KvIterator it) {
    scans.incrementAndGet();
    return new KvIterator() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public KeyValue next() {
        scanned.incrementAndGet();
        return it.next();
      }

      @Override
      public void close() {
        it.close();
      }
    };
  }

  @Override
  public void flushWal() {
    delegate.flushWal();
  }

  @Override
  public void awaitDurable(WriteReceipt receipt) {
    delegate.awaitDurable(receipt);
  }

  @Override
  public boolean awaitDurable(WriteReceipt receipt, Duration timeout) {
    return delegate.awaitDurable(receipt, timeout);
  }

  @Override
  public CompletableFuture<Void> durableFuture(WriteReceipt receipt) {
    return delegate.durableFuture(receipt);
  }

  @Override
  public long durableSeqnum() {
    return delegate.durableSeqnum();
  }

  @Override
  public CheckpointId createCheckpoint(Duration lifetime) {
    return delegate.createCheckpoint(lifetime);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Every record of {@code view}, in key order, as (key, value) pairs. */
  static List<KeyValue> dump(KvReadView view) {
    List<KeyValue> out = new java.util.ArrayList<>();
    try (KvIterator it = view.scan(KeyRange.all())) {
      it.forEachRemaining(out::add);
    }
    return out;
  }
}
