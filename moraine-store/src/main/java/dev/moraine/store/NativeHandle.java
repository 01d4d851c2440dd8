package dev.moraine.store;

import dev.moraine.core.kv.KvClosedException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards one native handle so that closing it can race any call on it without a crash.
 *
 * <p><b>What guards what.</b> One {@link AtomicLong} holds a CLOSED bit and the number of calls in
 * flight. A call {@link #enter() enters} by incrementing the count, but only while CLOSED is clear
 * (a compare-and-set, so it cannot slip in after close); it {@link #exit() exits} by
 * decrementing. {@link #beginClose()} sets CLOSED and counts the closer as one more call, in one
 * compare-and-set, so exactly one thread wins the close. From then on the count only falls; the
 * thread whose exit brings it to zero with CLOSED set is the last user of the address, and it
 * alone runs the release action (close children, free native memory). That transition happens
 * once, so the native memory is freed exactly once and never while a call still uses it.
 *
 * <p>A closing thread does not wait for calls in flight: it asks the native side to shut down
 * (which makes blocked calls such as {@code awaitDurable} return with a closed error) and leaves
 * the freeing to whichever thread exits last.
 *
 * <p><b>Parents.</b> A handle made from another (an iterator from a snapshot, a transaction from
 * a store) names it as parent: entering the child enters the parent first, so a call on a child
 * fails with {@link KvClosedException} once the parent is closed, and the parent is not released
 * while a child call is in flight. Children register with their parent; when the parent is
 * released it closes the children still open, so nothing leaks.
 */
final class NativeHandle {
  private static final Logger LOG = LoggerFactory.getLogger(NativeHandle.class);

  private static final long CLOSED = 1L << 62;

  private final String what;
  private final long address;
  private final LongConsumer free;
  private final NativeHandle parent;
  /** CLOSED bit | calls in flight (including a closer's own). */
  private final AtomicLong state = new AtomicLong();
  /** Open children; closed when this handle is released. */
  private final Set<AutoCloseable> children = ConcurrentHashMap.newKeySet();
  /** The Java object owning this handle: written once by its constructor, read on release. */
  private volatile AutoCloseable owner;

  /**
   * @param what a name for messages, e.g. "store" or "iterator"
   * @param address the native handle, not 0
   * @param free frees the native memory; called exactly once
   * @param parent the handle this one was made from, or null
   */
  NativeHandle(String what, long address, LongConsumer free, NativeHandle parent) {
    if (address == 0) {
      throw new IllegalArgumentException("null native handle for " + what);
    }
    this.what = what;
    this.address = address;
    this.free = free;
    this.parent = parent;
  }

  /**
   * Starts a call and returns the address to pass to native code. Every successful enter must be
   * paired with one {@link #exit()} in a finally block.
   *
   * @throws KvClosedException if this handle or one of its parents is closed
   */
  long enter() {
    if (parent != null) {
      parent.enter();
    }
    while (true) {
      long s = state.get();
      if ((s & CLOSED) != 0) {
        if (parent != null) {
          parent.exit();
        }
        throw new KvClosedException(what + " is closed");
      }
      if (state.compareAndSet(s, s + 1)) {
        return address;
      }
    }
  }

  /** Ends a call started by {@link #enter()}. */
  void exit() {
    leave();
    if (parent != null) {
      parent.exit();
    }
  }

  /**
   * Marks the handle closed. Returns true for the one caller that closed it: that caller may use
   * the address for its shutdown call and must then call {@link #finishClose()}. Returns false if
   * the handle was already closed (nothing to do). Does not enter the parent: closing a child of
   * a closed parent must work.
   */
  boolean beginClose() {
    while (true) {
      long s = state.get();
      if ((s & CLOSED) != 0) {
        return false;
      }
      if (state.compareAndSet(s, (s + 1) | CLOSED)) {
        return true;
      }
    }
  }

  /** The closer's exit: releases the handle if no call is in flight any more. */
  void finishClose() {
    leave();
  }

  /** The address, for a closer between {@link #beginClose()} and {@link #finishClose()}. */
  long address() {
    return address;
  }

  /** True once this handle or a parent is closed. */
  boolean isClosed() {
    return (state.get() & CLOSED) != 0 || (parent != null && parent.isClosed());
  }

  /**
   * Registers a child to be closed when this handle is released. Must be called inside a call on
   * this handle (between {@link #enter()} and {@link #exit()}): the release cannot run before that
   * call exits, so it is guaranteed to see the child.
   */
  private void adopt(AutoCloseable child) {
    children.add(child);
  }

  /** Forgets a child that closed itself. */
  void disown(AutoCloseable child) {
    children.remove(child);
  }

  private void leave() {
    if (state.decrementAndGet() == CLOSED) {
      release();
    }
  }

  /** Runs once: on the thread whose exit found the handle closed and idle. */
  private void release() {
    for (AutoCloseable child : children) {
      closeQuietly(child);
    }
    children.clear();
    try {
      free.accept(address);
    } catch (RuntimeException e) {
      LOG.warn("freeing native {} failed", what, e);
    }
    AutoCloseable self = owner;
    if (parent != null && self != null) {
      parent.disown(self);
    }
  }

  /**
   * Names the Java object owning this handle and registers it with the parent. Call from the
   * owner's constructor, inside the parent call that created the handle.
   */
  void owner(AutoCloseable owner) {
    this.owner = owner;
    if (parent != null) {
      parent.adopt(owner);
    }
  }

  private static void closeQuietly(AutoCloseable child) {
    try {
      child.close();
    } catch (Exception e) {
      LOG.warn("closing a child handle failed", e);
    }
  }
}
