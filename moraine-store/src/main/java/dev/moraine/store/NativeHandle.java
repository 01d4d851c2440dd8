package dev.moraine.store;

import dev.moraine.core.kv.KvClosedException;
import java.lang.ref.Cleaner;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards one native handle so that closing it can race any call on it without a crash.
 *
 * <p><b>What guards what.</b> One {@link AtomicLong} holds a CLOSED bit and the number of calls in
 * flight. A call {@link #enter() enters} by incrementing the count, but only while CLOSED is clear
 * (a compare-and-set, so it cannot slip in after close); it {@link #exit() exits} by decrementing.
 * {@link #beginClose()} sets CLOSED and counts the closer as one more call, in one compare-and-set,
 * so exactly one thread wins the close. From then on the count only falls; the thread whose exit
 * brings it to zero with CLOSED set is the last user of the address, and it alone runs the release
 * action. That transition happens once, and never while a call still uses the address.
 *
 * <p>A closing thread does not wait for calls in flight: it asks the native side to shut down
 * (which makes blocked calls such as {@code awaitDurable} return with a closed error) and leaves
 * the freeing to whichever thread exits last.
 *
 * <p><b>Cells: freeing exactly once.</b> The native memory itself is represented by a {@link Cell}:
 * the address, its free function and a freed flag that a compare-and-set turns on once. Only {@link
 * Cell#free()} calls the free function, so whichever path gets there first frees, and every other
 * path finds the flag set and does nothing. There are three such paths for a child: its own release
 * (after an explicit close, or after the cleaner closed it), and its parent's release, which frees
 * the cells of the children still registered. Each path may only run when no call can be using the
 * address:
 *
 * <ul>
 *   <li>A handle's own release runs when its count reaches zero with CLOSED set (above).
 *   <li>A parent's release runs when the parent's count reaches zero with CLOSED set. Entering a
 *       child enters the parent first and exits it last, so a child call in flight keeps the
 *       parent's count above zero: when the parent releases, no call on any descendant is in
 *       flight, and none can start (entering the parent fails). So the parent may free the child
 *       cells directly, without touching the children's own counts. A child closed after that finds
 *       its cell freed.
 *   <li>The cleaner does not free anything itself: it closes the handle through {@link
 *       #beginClose()}/{@link #finishClose()}, as an explicit close would, so the ordinary protocol
 *       decides when the release runs. (An owner can become unreachable while one of its calls is
 *       still in native code, since the JIT may drop {@code this} once the method no longer reads
 *       it; the protocol then defers the free to that call's exit.)
 * </ul>
 *
 * Closing a child never uses the child's address (only roots have a native shutdown call), so a
 * parent freeing the cell while a child closer sits between {@code beginClose} and {@code
 * finishClose} is harmless.
 *
 * <p><b>Parents.</b> A handle made from another (an iterator from a snapshot, a transaction from a
 * store) names it as parent: entering the child enters the parent first, so a call on a child fails
 * with {@link KvClosedException} once the parent is closed, and the parent is not released while a
 * child call is in flight. The parent's registry holds the children's cells, never the Java objects
 * that own them, so a child its owner forgot is not kept reachable by its parent.
 *
 * <p><b>The cleaner.</b> Each child handle registers its owner with a {@link Cleaner}. The cleaner
 * action holds this handle (its guard and cell), never the owner, and nothing this handle
 * references leads back to the owner, so the owner can become unreachable. If it does while still
 * open, the action closes the handle, its release frees the native child, removes the cell from the
 * parent, and logs a warning. An abandoned transaction would otherwise keep SlateDB tracking the
 * keys of every later write for conflict checks, and an abandoned snapshot would pin old versions,
 * until the store closes. Root handles (store, reader, fault injector) are not cleaned: they must
 * be closed.
 */
final class NativeHandle {
  private static final Logger LOG = LoggerFactory.getLogger(NativeHandle.class);

  private static final long CLOSED = 1L << 62;

  /** One cleaner thread for every child handle in the process. */
  private static final Cleaner CLEANER = Cleaner.create();

  /** How many native children the cleaner has freed, for tests. */
  private static final AtomicLong CLEANER_FREES = new AtomicLong();

  private final String what;
  private final Cell cell;
  private final NativeHandle parent;

  /** CLOSED bit | calls in flight (including a closer's own). */
  private final AtomicLong state = new AtomicLong();

  /**
   * Set by the cleaner action after it won the close and before it finishes it; read by the
   * release, which the closer's finishClose happens-before (both go through {@link #state}).
   */
  private volatile boolean abandoned;

  /** The cleaner registration of a child handle; null for roots. */
  private volatile Cleaner.Cleanable cleanable;

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
    this.cell = new Cell(what, address, free);
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
        return cell.address;
      }
    }
  }

  /** Ends a call started by {@link #enter()}. */
  void exit() {
    // This handle first, the parent last: the parent's count stays above zero until this
    // handle's own release (if this exit triggers it) has finished.
    leave();
    if (parent != null) {
      parent.exit();
    }
  }

  /**
   * Marks the handle closed. Returns true for the one caller that closed it: that caller may use
   * the address for its shutdown call and must then call {@link #finishClose()}. Returns false if
   * the handle was already closed (nothing to do). Does not enter the parent: closing a child of a
   * closed parent must work.
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
    return cell.address;
  }

  /** True once this handle or a parent is closed. */
  boolean isClosed() {
    return (state.get() & CLOSED) != 0 || (parent != null && parent.isClosed());
  }

  /** Calls in flight on this handle (a closer counts as one), for tests. */
  long callsInFlight() {
    return state.get() & ~CLOSED;
  }

  /** True once the native memory behind this handle has been freed, for tests. */
  boolean isFreed() {
    return cell.freed.get();
  }

  /** How many abandoned child handles the cleaner has freed in this process, for tests. */
  static long cleanerFrees() {
    return CLEANER_FREES.get();
  }

  private void leave() {
    if (state.decrementAndGet() == CLOSED) {
      release();
    }
  }

  /** Runs once: on the thread whose exit found the handle closed and idle. */
  private void release() {
    // Frees this handle's children still registered, then its own memory, unless the parent's
    // release got there first (then this does nothing).
    boolean freedHere = cell.free();
    if (parent != null) {
      parent.cell.children.remove(cell);
    }
    // Drops the cleaner registration so the owner's collection costs nothing later. clean() runs
    // the action at most once; here it finds the handle closed and does nothing.
    Cleaner.Cleanable registration = cleanable;
    if (registration != null) {
      registration.clean();
    }
    if (freedHere && abandoned) {
      CLEANER_FREES.incrementAndGet();
      LOG.warn("{} {} was never closed; freed by the cleaner", article(what), what);
    }
  }

  private static String article(String noun) {
    return !noun.isEmpty() && "aeiou".indexOf(noun.charAt(0)) >= 0 ? "an" : "a";
  }

  /**
   * The cleaner action: runs once the owner is unreachable (or from {@link #release()}, when it is
   * a no-op). Closing through the ordinary protocol makes it safe against a call still in flight
   * and against an explicit close or a parent release at the same time.
   */
  private void closeAbandoned() {
    if (beginClose()) {
      abandoned = true;
      finishClose();
    }
  }

  /**
   * Names the Java object owning this handle. For a child handle, registers its cell with the
   * parent (to be freed when the parent is released) and the owner with the cleaner. Call from the
   * owner's constructor, inside the parent call that created the handle: the parent's release
   * cannot run before that call exits, so it is guaranteed to see the cell.
   */
  void owner(Object owner) {
    if (parent == null) {
      return;
    }
    parent.cell.children.add(cell);
    // A method reference on this handle: the action must not capture the owner, or the owner
    // would never become unreachable.
    cleanable = CLEANER.register(owner, this::closeAbandoned);
  }

  /**
   * The native memory of one handle: the address, its free function, and a flag that makes freeing
   * happen once whichever path (own release, parent release) gets there first. Holds no reference
   * to any Java owner, so a parent registering its children's cells keeps no owner alive.
   */
  private static final class Cell {
    private final String what;
    private final long address;
    private final LongConsumer free;
    private final AtomicBoolean freed = new AtomicBoolean();

    /**
     * Cells of the children made from this handle and not yet freed. Added to only inside a call on
     * this handle (so never after its release started); removed from by a child's release.
     */
    private final Set<Cell> children = ConcurrentHashMap.newKeySet();

    Cell(String what, long address, LongConsumer free) {
      this.what = what;
      this.address = address;
      this.free = free;
    }

    /**
     * Frees the children still registered, then this memory; returns true for the one call that
     * did. Callers guarantee no call is using this address or a descendant's (see the class
     * comment).
     */
    boolean free() {
      if (!freed.compareAndSet(false, true)) {
        return false;
      }
      for (Cell child : children) {
        child.free();
      }
      children.clear();
      try {
        free.accept(address);
      } catch (RuntimeException e) {
        LOG.warn("freeing native {} failed", what, e);
      }
      return true;
    }
  }
}
