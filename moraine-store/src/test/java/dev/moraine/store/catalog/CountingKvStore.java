package dev.moraine.store.catalog;

import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.ReadDurability;
import dev.moraine.core.kv.ScanOrder;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.store.forwarding.ForwardingKvIterator;
import dev.moraine.store.forwarding.ForwardingKvStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A decorator over a real store that counts what passes through it: keys read by point reads, range
 * scans opened, records returned by scans, and operations written (by batches and transactions
 * alike). Reads through the store's snapshots and transactions are counted too.
 */
final class CountingKvStore extends ForwardingKvStore {
  final AtomicLong pointReads = new AtomicLong();
  final AtomicLong scans = new AtomicLong();
  final AtomicLong scanned = new AtomicLong();
  final AtomicLong writes = new AtomicLong();

  CountingKvStore(KvStore delegate) {
    super(delegate);
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
  protected byte[] readOne(String call, KvReadView view, byte[] key, ReadDurability durability) {
    pointReads.incrementAndGet();
    return view.get(key, durability);
  }

  @Override
  protected List<byte[]> readMany(
      String call, KvReadView view, List<byte[]> keys, ReadDurability durability) {
    pointReads.addAndGet(keys.size());
    return view.getAll(keys, durability);
  }

  @Override
  protected KvIterator openScan(
      String call, KvReadView view, KeyRange range, ScanOrder order, ReadDurability durability) {
    KvIterator it = view.scan(range, order, durability);
    scans.incrementAndGet();
    return new ForwardingKvIterator(it) {
      @Override
      public KeyValue next() {
        scanned.incrementAndGet();
        return super.next();
      }
    };
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
  protected KvTransaction transaction(KvTransaction tx) {
    return new ReadRoutedTransaction(tx) {
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
    };
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
