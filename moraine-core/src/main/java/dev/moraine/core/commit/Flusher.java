package dev.moraine.core.commit;

import dev.moraine.core.kv.KvStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flush thread: durability, publication and acknowledgement. The commit thread hands it each
 * batch once the batch is in the store ({@link #submitted}); it decides with the {@link FlushPacer}
 * when to flush the write-ahead log, flushes it (one object-store PUT for every batch handed over
 * since the last flush: a member cap bounds a batch, not a flush), publishes a checkpoint covering
 * what is durable ({@link CheckpointPublisher}), and then completes the batches' callers, in the
 * order the batches were written.
 *
 * <p>What proves a batch durable is the store's durable sequence number at or past the batch's
 * write, read after the flush; nothing else does. A flush that fails leaves the batches it did not
 * make durable with an unknown outcome: they were written, may become durable, and are never
 * written again.
 *
 * <p>When no flush comes for {@link #IDLE_NANOS} after one was published, and when the catalog
 * closes, this thread publishes the long-lived checkpoint that keeps the last commits covered
 * ({@link CheckpointPublisher#publishIdle}).
 *
 * <p>A batch that wrote nothing (its members staged nothing, or were refused) is still queued here
 * behind the batches written before it: what its members saw rests on those, so they are answered
 * only once those are acknowledged, and with their fate.
 *
 * <p>Concurrency: {@link #lock} guards the pending queue, its weight, {@link #closing}, {@link
 * #flushing}, {@link #lastFlushEnd} and {@link #lastFate}. The commit thread only adds to the queue
 * and signals; this thread takes from it, and flushes, publishes and answers outside the lock, so
 * the commit thread never waits for an object-store request. The pacer and the publisher are this
 * thread's alone. A wake-up is not lost for the reason {@link Admission} gives: the queue is read
 * and waited on under the lock it is filled under.
 */
final class Flusher implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final KvStore store;
  private final FlushPacer pacer;
  private final CheckpointPublisher publisher;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** How long without a flush makes the writer idle, owing the long-lived checkpoint. */
  static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ArrayDeque<SubmittedBatch> pending = new ArrayDeque<>();
  private long pendingWeight;
  private boolean closing;
  private boolean flushing;
  private long lastFlushEnd = System.nanoTime();
  private BatchFate lastFate = BatchFate.LANDED;

  // The flush thread's own: whether a flush's checkpoint was published since the last long-lived
  // one (so an idle or closing writer owes one), and whether next() found the writer idle.
  private boolean idleOwed;
  private boolean idleDue;

  private final AtomicLong flushes = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();

  /**
   * @param publisher null when publication is off
   */
  Flusher(KvStore store, FlushPacer pacer, CheckpointPublisher publisher) {
    this.store = store;
    this.pacer = pacer;
    this.publisher = publisher;
  }

  /** Hands over a batch the commit thread is done with. */
  void submitted(SubmittedBatch batch) {
    BatchFate now = null;
    lock.lock();
    try {
      if (!batch.wrote() && pending.isEmpty() && !flushing) {
        // Everything written before it is answered: its members get the same answer at once.
        now = lastFate;
      } else {
        pending.addLast(batch);
        pendingWeight += batch.weight();
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
    if (now != null) {
      now.deliver(batch.requests());
    }
  }

  /** Stops once everything handed over is flushed and answered (no more pacing waits). */
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
      loop();
    } finally {
      if (publisher != null) {
        publisher.close();
      }
    }
  }

  private void loop() {
    while (true) {
      List<SubmittedBatch> batch;
      try {
        batch = next();
      } catch (InterruptedException e) {
        LOG.warn("the flush thread was interrupted; pending commits are answered as unknown");
        failPending(new BatchFate.Unknown("was not flushed: the flush thread was interrupted", e));
        return;
      }
      if (batch == null) {
        if (idleOwed) {
          publisher.publishIdle();
        }
        return;
      }
      if (idleDue) {
        idleDue = false;
        idleOwed = false;
        publisher.publishIdle();
        continue;
      }
      try {
        flushAndAnswer(batch);
      } catch (Throwable t) {
        LOG.error("the flush thread failed; the commits of this flush are answered as unknown", t);
        BatchFate fate = new BatchFate.Unknown("was not acknowledged: the flush thread failed", t);
        for (SubmittedBatch b : batch) {
          fate.deliver(b.requests());
        }
        finished(fate);
        if (t instanceof Error e) {
          failPending(fate);
          throw e;
        }
      }
    }
  }

  /**
   * Waits until the pacer lets the next flush start and takes every pending batch for it; answers
   * on the way the nothing-written batches that wait only on batches already answered. Null once
   * closing and nothing is left.
   */
  private List<SubmittedBatch> next() throws InterruptedException {
    List<SubmittedBatch> answerNow = new ArrayList<>();
    BatchFate fate;
    List<SubmittedBatch> take;
    lock.lock();
    try {
      while (true) {
        while (!pending.isEmpty() && !pending.peekFirst().wrote()) {
          answerNow.add(pending.removeFirst());
        }
        if (!answerNow.isEmpty()) {
          break;
        }
        if (pending.isEmpty()) {
          if (closing) {
            return null;
          }
          if (idleOwed) {
            if (changed.awaitNanos(IDLE_NANOS) <= 0 && pending.isEmpty() && !closing) {
              idleDue = true;
              return List.of();
            }
            continue;
          }
          changed.await();
          continue;
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
        take = new ArrayList<>(pending);
        pending.clear();
        pacer.started(now, pendingWeight, decision);
        pendingWeight = 0;
        flushing = true;
        return take;
      }
      fate = lastFate;
    } finally {
      lock.unlock();
    }
    for (SubmittedBatch b : answerNow) {
      fate.deliver(b.requests());
    }
    return List.of();
  }

  private void flushAndAnswer(List<SubmittedBatch> batches) {
    if (batches.isEmpty()) {
      return;
    }
    RuntimeException flushFailure = null;
    if (notYetDurable(batches)) {
      flushes.incrementAndGet();
      try {
        store.flushWal();
      } catch (RuntimeException e) {
        flushFailure = e;
      }
    }
    long durable = store.durableSeqnum();
    RuntimeException publishFailure = null;
    if (publisher != null && anyDurable(batches, durable)) {
      for (SubmittedBatch b : batches) {
        for (CommitRequest r : b.requests()) {
          r.enter(Phase.AWAITING_PUBLICATION);
        }
      }
      publishFailure = publisher.publish();
      idleOwed |= publishFailure == null;
    }
    BatchFate previous;
    lock.lock();
    try {
      previous = lastFate;
    } finally {
      lock.unlock();
    }
    for (SubmittedBatch b : batches) {
      BatchFate fate;
      if (!b.wrote()) {
        fate = previous;
      } else if (b.seqnum() <= durable) {
        fate =
            publishFailure == null
                ? BatchFate.LANDED
                : new BatchFate.Unknown(
                    "is durable, but the checkpoint that was to cover it could not be published ("
                        + publishFailure.getMessage()
                        + ")",
                    publishFailure);
      } else {
        fate =
            new BatchFate.Unknown(
                "was written to the store, but the log flush that makes it durable failed"
                    + (flushFailure != null ? " (" + flushFailure.getMessage() + ")" : ""),
                flushFailure);
      }
      fate.deliver(b.requests());
      if (fate instanceof BatchFate.Landed) {
        acknowledged.addAndGet(b.weight());
      }
      previous = fate;
    }
    finished(previous);
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

  private static boolean anyDurable(List<SubmittedBatch> batches, long durable) {
    for (SubmittedBatch b : batches) {
      if (b.wrote() && b.seqnum() <= durable) {
        return true;
      }
    }
    return false;
  }

  private void finished(BatchFate fate) {
    lock.lock();
    try {
      flushing = false;
      lastFlushEnd = System.nanoTime();
      lastFate = fate;
    } finally {
      lock.unlock();
    }
  }

  private void failPending(BatchFate fate) {
    List<SubmittedBatch> left;
    lock.lock();
    try {
      left = new ArrayList<>(pending);
      pending.clear();
      pendingWeight = 0;
      closing = true;
    } finally {
      lock.unlock();
    }
    for (SubmittedBatch b : left) {
      fate.deliver(b.requests());
    }
  }

  /** How many log flushes this writer asked for. */
  long flushes() {
    return flushes.get();
  }

  /** How many commits were acknowledged as landed. */
  long acknowledged() {
    return acknowledged.get();
  }

  /** How many checkpoints were published. */
  long publications() {
    return publisher == null ? 0 : publisher.publications();
  }
}
