package dev.moraine.core.commit;

import dev.moraine.core.kv.KvStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flush thread ({@code moraine-flush-<n>}): pacing and durability. The commit thread hands it
 * each batch once the batch is in the store ({@link #submitted}); it decides with the {@link
 * FlushPacer} when to flush the write-ahead log, flushes it (one object-store PUT for every batch
 * handed over since the last flush: a member cap bounds a batch, not a flush), reads the durable
 * sequence number, and hands the flush's batches to the {@link Acknowledger}, which publishes and
 * answers while this thread goes on to the next flush.
 *
 * <p>What proves a batch durable is the store's durable sequence number at or past the batch's
 * write, read after the flush; nothing else does. A flush that fails leaves the batches it did not
 * make durable with an unknown outcome: they were written, may become durable, and are never
 * written again.
 *
 * <p>A batch that wrote nothing (its members staged nothing, or were refused) is queued here too,
 * behind the batches written before it, and handed on in its place: what its members saw rests on
 * those. When only such batches wait, they are handed on without a flush.
 *
 * <p>Concurrency: {@link #lock} guards the pending queue, its weight, {@link #closing} and {@link
 * #lastFlushEnd}. The commit thread only adds to the queue and signals; this thread takes from it
 * and flushes outside the lock, so the commit thread never waits for an object-store request. The
 * pacer is this thread's alone. A wake-up is not lost for the reason {@link Admission} gives: the
 * queue is read and waited on under the lock it is filled under.
 */
final class Flusher implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final KvStore store;
  private final FlushPacer pacer;
  private final Acknowledger acknowledger;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<SubmittedBatch> pending = new ArrayDeque<>();
  private long pendingWeight;
  private boolean closing;
  private long lastFlushEnd = System.nanoTime();

  private final AtomicLong flushes = new AtomicLong();

  Flusher(KvStore store, FlushPacer pacer, Acknowledger acknowledger) {
    this.store = store;
    this.pacer = pacer;
    this.acknowledger = acknowledger;
  }

  /** Hands over a batch the commit thread is done with. */
  void submitted(SubmittedBatch batch) {
    lock.lock();
    try {
      pending.addLast(batch);
      pendingWeight += batch.weight();
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Stops once everything handed over is flushed and handed on (no more pacing waits). */
  void close() {
    lock.lock();
    try {
      closing = true;
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void run() {
    try {
      while (true) {
        List<SubmittedBatch> batches;
        try {
          batches = next();
        } catch (InterruptedException e) {
          LOG.warn("the flush thread was interrupted; pending commits are answered as unknown");
          handOn(drain(), store.durableSeqnum(), new IllegalStateException("interrupted", e));
          return;
        }
        if (batches == null) {
          return;
        }
        flush(batches);
      }
    } finally {
      acknowledger.close();
    }
  }

  /**
   * Waits until the pacer lets the next flush start (or only batches that wrote nothing wait) and
   * takes every pending batch. Null once closing and nothing is left.
   */
  private List<SubmittedBatch> next() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (pending.isEmpty()) {
          if (closing) {
            return null;
          }
          changed.await();
          continue;
        }
        if (pendingWeight == 0) {
          return takeAll();
        }
        long now = System.nanoTime();
        boolean arrivedInFlight = pending.peekFirst().submittedAt() - lastFlushEnd < 0;
        FlushPacer.Decision decision =
            closing
                ? new FlushPacer.Decision(now, true)
                : pacer.decide(now, pendingWeight, arrivedInFlight);
        long wait = decision.at() - now;
        if (wait > 0) {
          changed.awaitNanos(wait);
          continue;
        }
        pacer.started(now, pendingWeight, decision);
        return takeAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private List<SubmittedBatch> takeAll() {
    List<SubmittedBatch> take = new ArrayList<>(pending);
    pending.clear();
    pendingWeight = 0;
    return take;
  }

  private List<SubmittedBatch> drain() {
    lock.lock();
    try {
      closing = true;
      return takeAll();
    } finally {
      lock.unlock();
    }
  }

  private void flush(List<SubmittedBatch> batches) {
    RuntimeException failure = null;
    if (notYetDurable(batches)) {
      flushes.incrementAndGet();
      try {
        store.flushWal();
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    lock.lock();
    try {
      lastFlushEnd = System.nanoTime();
    } finally {
      lock.unlock();
    }
    handOn(batches, store.durableSeqnum(), failure);
  }

  private void handOn(List<SubmittedBatch> batches, long durable, RuntimeException failure) {
    if (!batches.isEmpty()) {
      acknowledger.flushed(new Acknowledger.Flushed(batches, durable, failure));
    }
  }

  private boolean notYetDurable(List<SubmittedBatch> batches) {
    long durable = store.durableSeqnum();
    for (SubmittedBatch b : batches) {
      if (b.wrote() && b.seqnum() > durable) {
        return true;
      }
    }
    return false;
  }

  /** How many log flushes this writer asked for. */
  long flushes() {
    return flushes.get();
  }
}
