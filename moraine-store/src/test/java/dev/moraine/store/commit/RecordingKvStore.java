package dev.moraine.store.commit;

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
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import dev.moraine.store.forwarding.ForwardingKvIterator;
import dev.moraine.store.forwarding.ForwardingKvStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
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
final class RecordingKvStore extends ForwardingKvStore {
  /**
   * One write and the store around it. {@code refused} is true for a commit that threw. {@code
   * members} splits {@code ops} by the commit each came from: a batch of several commits buffers
   * each one's operations in a call of its own (a transaction's {@code putAll}), in staging order.
   */
  record Landed(
      NavigableMap<byte[], byte[]> before,
      NavigableMap<byte[], byte[]> after,
      List<WriteBatch.Op> ops,
      boolean refused,
      List<List<WriteBatch.Op>> members) {
    /** A write of one commit. */
    Landed(
        NavigableMap<byte[], byte[]> before,
        NavigableMap<byte[], byte[]> after,
        List<WriteBatch.Op> ops,
        boolean refused) {
      this(before, after, ops, refused, List.of(ops));
    }
  }

  private final ReentrantLock writeLock = new ReentrantLock();
  // Entries handed to the catalog by reads through this store, its snapshots and transactions.
  private final java.util.concurrent.atomic.AtomicLong entriesRead =
      new java.util.concurrent.atomic.AtomicLong();
  // Guarded by writeLock: appended only while the lock is held, read after the writers are done.
  private final List<Landed> landed = new ArrayList<>();
  // Per thread: its last refused transaction commit, until the thread takes it. Only the thread
  // itself sets and takes its entry, so no lock is needed.
  private final ThreadLocal<Landed> refusedOnThread = new ThreadLocal<>();

  RecordingKvStore(KvStore store) {
    super(store);
  }

  /**
   * A recording writer over a new in-memory store named {@code name} (the store root {@code lake},
   * the flush timer off); the caller closes it and drops the in-memory store.
   */
  static RecordingKvStore inMemory(String name) {
    return new RecordingKvStore(
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                    .withSettings(StoreSettings.defaults().withFlushTimerOff()))
            .openWriter());
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

  /**
   * The last transaction commit of the calling thread that was refused, with the store as it was
   * then, or null if none was since the last call; forgets it.
   */
  Landed takeRefusedOnThisThread() {
    Landed refused = refusedOnThread.get();
    refusedOnThread.remove();
    return refused;
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
    try (KvIterator it = delegate.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        all.put(kv.key(), kv.value());
      }
    }
    return all;
  }

  @Override
  protected byte[] readOne(String call, KvReadView view, byte[] key, ReadDurability durability) {
    byte[] value = view.get(key, durability);
    entriesRead.incrementAndGet();
    return value;
  }

  @Override
  protected List<byte[]> readMany(
      String call, KvReadView view, List<byte[]> keys, ReadDurability durability) {
    List<byte[]> values = view.getAll(keys, durability);
    entriesRead.addAndGet(values.size());
    return values;
  }

  @Override
  protected KvIterator openScan(
      String call, KvReadView view, KeyRange range, ScanOrder order, ReadDurability durability) {
    return new ForwardingKvIterator(view.scan(range, order, durability)) {
      @Override
      public KeyValue next() {
        KeyValue kv = super.next();
        entriesRead.incrementAndGet();
        return kv;
      }
    };
  }

  private interface Submission<T> {
    T submit();
  }

  private <T> T recorded(List<List<WriteBatch.Op>> members, Submission<T> submission) {
    List<WriteBatch.Op> ops = new ArrayList<>();
    List<List<WriteBatch.Op>> parts = new ArrayList<>();
    for (List<WriteBatch.Op> m : members) {
      ops.addAll(m);
      parts.add(List.copyOf(m));
    }
    writeLock.lock();
    try {
      NavigableMap<byte[], byte[]> before = contents();
      T result;
      try {
        result = submission.submit();
      } catch (RuntimeException refused) {
        Landed record = new Landed(before, contents(), List.copyOf(ops), true, List.copyOf(parts));
        landed.add(record);
        refusedOnThread.set(record);
        throw refused;
      }
      landed.add(new Landed(before, contents(), List.copyOf(ops), false, List.copyOf(parts)));
      return result;
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    return recorded(List.of(batch.ops()), () -> delegate.write(batch));
  }

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    List<List<WriteBatch.Op>> members = new ArrayList<>();
    batches.forEach(b -> members.add(b.ops()));
    return recorded(members, () -> delegate.writeAll(batches));
  }

  @Override
  protected KvTransaction transaction(KvTransaction tx) {
    return new Recording(tx);
  }

  /** A transaction whose buffered writes are mirrored, to be recorded with its commit. */
  private final class Recording extends ReadRoutedTransaction {
    // Confined to the thread running the commit, like the transaction itself: one list per
    // buffering call (a batch buffers each member's writes with one putAll).
    private final List<List<WriteBatch.Op>> members = new ArrayList<>();

    Recording(KvTransaction tx) {
      super(tx);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      delegate.put(key, value);
      members.add(List.of(new WriteBatch.Op(key.clone(), value.clone())));
    }

    @Override
    public void delete(byte[] key) {
      delegate.delete(key);
      members.add(List.of(new WriteBatch.Op(key.clone(), null)));
    }

    @Override
    public void putAll(WriteBatch batch) {
      delegate.putAll(batch);
      members.add(List.copyOf(batch.ops()));
    }

    @Override
    public WriteReceipt commit() {
      return recorded(members, delegate::commit);
    }
  }
}
