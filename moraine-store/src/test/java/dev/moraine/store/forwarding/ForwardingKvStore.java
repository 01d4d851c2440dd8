package dev.moraine.store.forwarding;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KeyRange;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link KvStore} that hands every call to a real store, the base of the test decorators that
 * watch what the catalog does to its store. A decorator overrides only what it adds.
 *
 * <p>Reads take one path whichever view they are made on: a read on the store, on one of its
 * snapshots or on one of its transactions calls {@link #readOne}, {@link #readMany} or {@link
 * #openScan} with the name of the call ({@code "store.get"}, {@code "snapshot.scan"}, {@code
 * "tx.getAll"}, ...) and the real view it goes to. A decorator that watches reads overrides those
 * three and sees them all. Transactions come from {@link #transaction}, which a decorator overrides
 * (returning a {@link ReadRoutedTransaction}) to watch their writes.
 *
 * <p>This class keeps no state of its own; whatever a subclass keeps, it guards itself.
 */
public class ForwardingKvStore implements KvStore {
  /** The real store. */
  protected final KvStore delegate;

  public ForwardingKvStore(KvStore delegate) {
    this.delegate = delegate;
  }

  // ------------------------------------------------------------ the one read path

  /** A point read of {@code key} on {@code view}, the real store or one of its views. */
  protected byte[] readOne(String call, KvReadView view, byte[] key, ReadDurability durability) {
    return view.get(key, durability);
  }

  /** A multi-get of {@code keys} on {@code view}. */
  protected List<byte[]> readMany(
      String call, KvReadView view, List<byte[]> keys, ReadDurability durability) {
    return view.getAll(keys, durability);
  }

  /** A range scan opened on {@code view}. */
  protected KvIterator openScan(
      String call, KvReadView view, KeyRange range, ScanOrder order, ReadDurability durability) {
    return view.scan(range, order, durability);
  }

  /** Wraps a transaction of the real store; by default only its reads are routed. */
  protected KvTransaction transaction(KvTransaction tx) {
    return new ReadRoutedTransaction(tx);
  }

  /** A transaction whose reads take the store's read path and whose writes go straight through. */
  protected class ReadRoutedTransaction extends ForwardingKvTransaction {
    protected ReadRoutedTransaction(KvTransaction delegate) {
      super(delegate);
    }

    @Override
    public byte[] get(byte[] key, ReadDurability durability) {
      return readOne("tx.get", delegate, key, durability);
    }

    @Override
    public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
      return openScan("tx.scan", delegate, range, order, durability);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
      return readMany("tx.getAll", delegate, keys, durability);
    }
  }

  // ------------------------------------------------------------ KvStore

  @Override
  public byte[] get(byte[] key, ReadDurability durability) {
    return readOne("store.get", delegate, key, durability);
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
    return openScan("store.scan", delegate, range, order, durability);
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
    return readMany("store.getAll", delegate, keys, durability);
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    return delegate.write(batch);
  }

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    return delegate.writeAll(batches);
  }

  @Override
  public KvTransaction begin() {
    return transaction(delegate.begin());
  }

  @Override
  public KvSnapshot snapshot() {
    KvSnapshot snapshot = delegate.snapshot();
    return new KvSnapshot() {
      @Override
      public byte[] get(byte[] key, ReadDurability durability) {
        return readOne("snapshot.get", snapshot, key, durability);
      }

      @Override
      public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
        return openScan("snapshot.scan", snapshot, range, order, durability);
      }

      @Override
      public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
        return readMany("snapshot.getAll", snapshot, keys, durability);
      }

      @Override
      public void close() {
        snapshot.close();
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
  public void deleteCheckpoint(CheckpointId checkpoint) {
    delegate.deleteCheckpoint(checkpoint);
  }

  @Override
  public Optional<Duration> flushTimer() {
    return delegate.flushTimer();
  }

  @Override
  public Optional<String> walStore() {
    return delegate.walStore();
  }

  @Override
  public void flushMemtable() {
    delegate.flushMemtable();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
