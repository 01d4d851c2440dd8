package dev.moraine.core.commit;

import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.commit.CommitRequest.State;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The way into the commit thread: the queue of commits waiting to join a batch, and the one lock
 * under which a commit changes hands.
 *
 * <p>What the lock guards: the queue, {@link #closed}, and every request's {@link
 * CommitRequest#state}. Three parties move a state: a caller admits its request ({@code QUEUED})
 * and, interrupted, leaves it ({@code LEFT}) as long as it has not been sealed; the commit thread
 * takes requests into a batch ({@code IN_BATCH}) and seals them for submission ({@code SUBMITTED}).
 * Because leaving and sealing are both decided under the lock, a request is either sealed, and its
 * caller then learns the outcome (or that it is unknown), or left, and then nothing of it is
 * written: sealing refuses a batch holding a request that left, and the batch is staged again
 * without it.
 *
 * <p>Why no wake-up is lost: the commit thread waits on {@link #arrived} only after finding the
 * queue empty (or holding nothing it may take during a yield) under the lock, and a caller adds to
 * the queue and signals under the same lock; a signal therefore either finds the thread waiting, or
 * comes before the thread looks at the queue and sees the request there. A yield's wait is bounded
 * by its end, so its expiry needs no signal.
 *
 * <p>The yield (RFC 0004 spec, "Staged-row commits"): a commit that cannot be rebased and lost its
 * race is re-driven by its caller after a fresh read, while other commits keep moving the head. For
 * a quarter second after such a loss ({@link #yieldArrivals}), the commit thread takes only such
 * commits ({@link CommitRequest#alone}), each as a batch of its own; everything else waits for the
 * yield to end, in arrival order.
 */
final class Admission {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private final ArrayDeque<CommitRequest> queue = new ArrayDeque<>();
  private boolean closed;

  /** Until when (System.nanoTime) arrivals yield; guarded by {@link #lock}. */
  private long yieldUntil = System.nanoTime();

  /**
   * Queues a caller's commit.
   *
   * @throws ClosedException if the catalog is closed; nothing is queued
   */
  CommitRequest admit(List<CommitWork> works) {
    CommitRequest request = new CommitRequest(works);
    lock.lock();
    try {
      if (closed) {
        throw new ClosedException("the catalog is closed; nothing of the commit was written", null);
      }
      queue.addLast(request);
      arrived.signal();
    } finally {
      lock.unlock();
    }
    return request;
  }

  /**
   * The commit thread's next request, taken into a batch; waits for one. Null once the catalog is
   * closed and the queue is empty.
   */
  CommitRequest takeFirst() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (queue.isEmpty()) {
          if (closed) {
            return null;
          }
          arrived.await();
          continue;
        }
        long yielding = yieldUntil - System.nanoTime();
        if (yielding <= 0 || closed) {
          return take(queue.peekFirst());
        }
        for (CommitRequest r : queue) {
          if (r.alone) {
            return take(r);
          }
        }
        arrived.awaitNanos(yielding);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Holds the queued commits and those arriving for {@code nanos}, except those that commit alone:
   * a non-rebasable commit that lost its race is re-driven meanwhile without being overtaken again.
   * A yield under way is not extended, so that losses in a row cannot hold the other commits longer
   * than one yield at a time: when it ends, they go first.
   */
  void yieldArrivals(long nanos) {
    lock.lock();
    try {
      long now = System.nanoTime();
      if (yieldUntil - now <= 0) {
        yieldUntil = now + nanos;
      }
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next queued request, taken into the forming batch, or null when nobody is waiting: the
   * batch then seals, since no caller is on its way into it.
   */
  CommitRequest takeNext() {
    lock.lock();
    try {
      // A commit that commits alone starts a batch of its own, and none joins during a yield.
      if (queue.isEmpty() || queue.peekFirst().alone || yieldUntil - System.nanoTime() > 0) {
        return null;
      }
      return take(queue.peekFirst());
    } finally {
      lock.unlock();
    }
  }

  private CommitRequest take(CommitRequest r) {
    queue.remove(r);
    r.state = State.IN_BATCH;
    r.enter(Phase.STAGING);
    return r;
  }

  /**
   * Seals a batch's requests for submission: true, and every one is {@code SUBMITTED}, unless one
   * of them has left, in which case nothing changes and the batch must be staged again without it.
   */
  boolean seal(List<CommitRequest> requests) {
    lock.lock();
    try {
      for (CommitRequest r : requests) {
        if (r.state == State.LEFT) {
          return false;
        }
      }
      for (CommitRequest r : requests) {
        r.state = State.SUBMITTED;
        r.enter(Phase.SUBMITTING);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Requests of a batch that lost its race, back in the hands of the commit thread to re-run. */
  void reopen(List<CommitRequest> requests) {
    lock.lock();
    try {
      for (CommitRequest r : requests) {
        r.state = State.IN_BATCH;
        r.enter(Phase.STAGING);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@code r} has left (read by the commit thread to skip its work). */
  boolean hasLeft(CommitRequest r) {
    lock.lock();
    try {
      return r.state == State.LEFT;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The caller of {@code r} stops waiting. True when the request had not been sealed: it has left,
   * and nothing of it is or will be written. False when it was sealed: its batch goes on, and its
   * outcome is no longer the caller's to know.
   */
  Leaving leave(CommitRequest r) {
    lock.lock();
    try {
      if (r.state == State.QUEUED) {
        queue.remove(r);
      } else if (r.state != State.IN_BATCH) {
        // Sealed: the commit thread staged it before sealing under this lock, so what it staged
        // is visible here, and it does not change until the batch is answered or re-opened
        // (which also happens under this lock).
        return new Leaving(r.state == State.LEFT, r.attemptedSnapshotId());
      }
      r.state = State.LEFT;
      return new Leaving(true, OptionalLong.empty());
    } finally {
      lock.unlock();
    }
  }

  /**
   * What {@link #leave} found: whether the request left (nothing of it written), and otherwise the
   * first snapshot its sealed attempt would mint.
   */
  record Leaving(boolean left, OptionalLong attemptedSnapshotId) {}

  /**
   * Closes the way in: later commits are refused, and the commits still queued are returned, marked
   * as left, for the caller to fail. The commit thread finishes the batch it holds and then finds
   * nothing more to take.
   */
  List<CommitRequest> close() {
    lock.lock();
    try {
      closed = true;
      List<CommitRequest> stranded = new ArrayList<>(queue);
      queue.clear();
      for (CommitRequest r : stranded) {
        r.state = State.LEFT;
      }
      arrived.signalAll();
      return stranded;
    } finally {
      lock.unlock();
    }
  }
}
