package dev.moraine.store;

import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvIterator;
import java.lang.ref.Reference;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * A SlateDB scan. Entries are fetched from native code in runs (up to a few hundred entries or
 * about a megabyte per call) and handed out one by one. The native iterator is freed as soon as the
 * scan is exhausted, or on close.
 *
 * <p>Not thread-safe, as the SPI allows; only {@link #close()} may race (for example with the
 * store's close), which the {@link NativeHandle} guard makes safe.
 */
final class SlateKvIterator implements KvIterator {
  private final NativeHandle handle;
  private final NativeHandle parent;

  /**
   * The Java object that owns the parent handle (a snapshot, transaction, reader or store), held
   * only to keep it reachable: the cleaner closes a child view once its owner is unreachable, and
   * {@code store.snapshot().scan(range)} keeps no other reference to the snapshot. Without this the
   * snapshot could be freed, and the scan fail as closed, while the iterator is still in use. The
   * reference runs one way (view to iterator never), so an abandoned iterator still lets both be
   * cleaned.
   */
  @SuppressWarnings({"unused", "FieldCanBeLocal"})
  private final Object view;

  private final ArrayDeque<KeyValue> buffered = new ArrayDeque<>();
  // Confined to the iterating thread.
  private boolean exhausted;
  // Written by close (any thread), read by the iterating thread.
  private volatile boolean closed;

  /**
   * Takes ownership of {@code address}; call inside the parent call that created it.
   *
   * @param view the owner of {@code parent}, kept reachable while this iterator is
   */
  SlateKvIterator(long address, NativeHandle parent, Object view) {
    this.parent = parent;
    this.view = view;
    this.handle = new NativeHandle("iterator", address, Native::iterFree, parent);
    handle.owner(this);
  }

  /** The guarded native handle, for tests. */
  NativeHandle handle() {
    return handle;
  }

  /** The handle of the view this iterator reads from, for tests. */
  NativeHandle parentHandle() {
    return parent;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      throw new KvClosedException("iterator is closed");
    }
    if (parent.isClosed()) {
      throw new KvClosedException("the view this iterator reads from is closed");
    }
    if (!buffered.isEmpty()) {
      return true;
    }
    if (exhausted) {
      return false;
    }
    byte[] run;
    long address = handle.enter();
    try {
      run = Native.iterNext(address);
    } finally {
      handle.exit();
    }
    if (run == null) {
      exhausted = true;
      release();
      return false;
    }
    WireFormat.decodeEntries(run, buffered);
    return !buffered.isEmpty();
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return buffered.removeFirst();
  }

  /**
   * Closes the scan. May be called from another thread than the iterating one (a close from
   * elsewhere is allowed to race), so it touches only the volatile flag and the guarded handle,
   * never the buffer. A scan left open is freed with its view, or by the cleaner once unreachable.
   */
  @Override
  public void close() {
    closed = true;
    release();
    // Keeps this reachable until the close has won, so the cleaner cannot take it for abandoned.
    Reference.reachabilityFence(this);
  }

  private void release() {
    if (handle.beginClose()) {
      handle.finishClose();
    }
  }
}
