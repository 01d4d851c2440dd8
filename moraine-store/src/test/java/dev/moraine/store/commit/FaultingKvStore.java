package dev.moraine.store.commit;

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
import dev.moraine.store.NativeFaults;
import dev.moraine.store.forwarding.ForwardingKvStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real SlateDB store seen through a decorator that names every call made into it (on the store,
 * its snapshots and its transactions) and can make the k-th of them fail inside the native binding.
 *
 * <p>The decorator decides only which call fails; the failure itself is the binding's own: before
 * delegating the chosen call it arms the native test hook on the view the call goes to, so the real
 * native call fails at the JNI boundary either before it hands anything to SlateDB ({@link
 * Mode#BEFORE_SUBMISSION}) or right after ({@link Mode#AFTER_SUBMISSION}, for calls that submit).
 *
 * <p>The calls come from the catalog's commit and flush threads, one after the other, and the test
 * thread reads what they named: the call list and the armed fault are guarded by this object's
 * monitor (held only to name a call, never across it).
 */
final class FaultingKvStore extends ForwardingKvStore {
  /** Where inside the chosen call the native failure happens. */
  enum Mode {
    BEFORE_SUBMISSION,
    AFTER_SUBMISSION
  }

  private final List<String> calls = new ArrayList<>();
  private volatile boolean recording;
  private int failAt = -1;
  private Mode mode;
  private String failed;

  FaultingKvStore(KvStore delegate) {
    super(delegate);
  }

  /** Starts naming calls afresh; with {@code failAt >= 0}, the call of that index fails. */
  synchronized void record(int failAt, Mode mode) {
    calls.clear();
    this.recording = true;
    this.failAt = failAt;
    this.mode = mode;
    this.failed = null;
  }

  /** Stops naming calls and disarms any fault not yet reached. */
  synchronized void stop() {
    recording = false;
    failAt = -1;
  }

  /**
   * Runs {@code body} with naming suspended: its calls are neither named nor failed. The body may
   * run on another thread as long as this thread waits for it (the wait orders its calls before and
   * after this thread's).
   */
  void unrecorded(Runnable body) {
    boolean was = recording;
    recording = false;
    try {
      body.run();
    } finally {
      recording = was;
    }
  }

  /** How many calls were named so far. */
  synchronized int named() {
    return calls.size();
  }

  /** The calls named since {@link #record}. */
  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  /** The name of the call that was made to fail, or null if none was reached. */
  synchronized String failed() {
    return failed;
  }

  /** Names the call and, if it is the chosen one, arms the native failure on {@code view}. */
  private synchronized void enter(String name, KvReadView view) {
    if (!recording) {
      return;
    }
    if (calls.size() == failAt) {
      failed = name;
      if (mode == Mode.AFTER_SUBMISSION) {
        NativeFaults.failNextCallAfterSubmission(view);
      } else {
        NativeFaults.failNextCall(view);
      }
    }
    calls.add(name);
  }

  @Override
  protected byte[] readOne(String call, KvReadView view, byte[] key, ReadDurability durability) {
    enter(call, view);
    return view.get(key, durability);
  }

  @Override
  protected List<byte[]> readMany(
      String call, KvReadView view, List<byte[]> keys, ReadDurability durability) {
    enter(call, view);
    return view.getAll(keys, durability);
  }

  @Override
  protected KvIterator openScan(
      String call, KvReadView view, KeyRange range, ScanOrder order, ReadDurability durability) {
    enter(call, view);
    return view.scan(range, order, durability);
  }

  @Override
  public WriteReceipt write(WriteBatch batch) {
    enter("store.write", delegate);
    return delegate.write(batch);
  }

  @Override
  public List<WriteReceipt> writeAll(List<WriteBatch> batches) {
    enter("store.writeAll", delegate);
    return delegate.writeAll(batches);
  }

  @Override
  public KvTransaction begin() {
    enter("store.begin", delegate);
    return super.begin();
  }

  @Override
  protected KvTransaction transaction(KvTransaction tx) {
    return new ReadRoutedTransaction(tx) {
      @Override
      public void put(byte[] key, byte[] value) {
        enter("tx.put", tx);
        tx.put(key, value);
      }

      @Override
      public void delete(byte[] key) {
        enter("tx.delete", tx);
        tx.delete(key);
      }

      @Override
      public void putAll(WriteBatch batch) {
        enter("tx.putAll", tx);
        tx.putAll(batch);
      }

      @Override
      public WriteReceipt commit() {
        enter("tx.commit", tx);
        return tx.commit();
      }
    };
  }

  @Override
  public KvSnapshot snapshot() {
    enter("store.snapshot", delegate);
    return super.snapshot();
  }

  @Override
  public void flushWal() {
    enter("store.flushWal", delegate);
    delegate.flushWal();
  }

  @Override
  public CheckpointId createCheckpoint(Duration lifetime) {
    enter("store.createCheckpoint", delegate);
    return delegate.createCheckpoint(lifetime);
  }
}
