package dev.moraine.core.commit;

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
 * The acknowledgement thread ({@code moraine-ack-<n>}): publication and the answers. The flush
 * thread hands it each flush's batches with what the flush proved ({@link Flushed}); it publishes
 * one checkpoint covering every write durable by then ({@link CheckpointPublisher}), once for all
 * the flushes handed over meanwhile, and then completes the batches' callers in the order the
 * batches were written. The flush thread goes on to the next flush meanwhile, so a flush and the
 * publication of the one before it overlap: under load the cycle a commit waits for is the longer
 * of the two, not their sum, and several flushes share a publication.
 *
 * <p>Fates: a batch whose write is at or below the durable sequence number its flush read is landed
 * once the publication succeeds (durable but unknown if it keeps failing); one above it was not
 * made durable, an unknown outcome; a batch that wrote nothing takes the fate of the batch written
 * before it, since what its members saw rests on that one.
 *
 * <p>When nothing is handed over for {@link #IDLE_NANOS} after a publication, and when the catalog
 * closes, this thread publishes the long-lived checkpoint that keeps the last commits covered
 * ({@link CheckpointPublisher#publishIdle}).
 *
 * <p>Concurrency: {@link #lock} guards the queue and {@link #closing}; the publisher, {@link
 * #lastFate} and {@link #idleOwed} are this thread's own. The flush thread only adds and signals;
 * no wake-up is lost for the reason {@link Admission} gives.
 */
final class Acknowledger implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Acknowledger.class);

  /**
   * How long without a flush handed over makes the writer idle, owing the long-lived checkpoint.
   */
  static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * One flush's batches, in write order, with what the flush proved: the durable sequence number
   * read after it, and the failure of the flush, if it failed.
   */
  record Flushed(List<SubmittedBatch> batches, long durableSeqnum, RuntimeException failure) {}

  private final CheckpointPublisher publisher;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Flushed> queue = new ArrayDeque<>();
  private boolean closing;
  private BatchFate lastFate = BatchFate.LANDED;
  private boolean idleOwed;
  private final AtomicLong acknowledged = new AtomicLong();

  /**
   * @param publisher null when publication is off
   */
  Acknowledger(CheckpointPublisher publisher) {
    this.publisher = publisher;
  }

  /** Hands over one flush's batches. */
  void flushed(Flushed flushed) {
    lock.lock();
    try {
      queue.addLast(flushed);
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Stops once everything handed over is answered. */
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
        List<Flushed> work;
        try {
          work = next();
        } catch (InterruptedException e) {
          LOG.warn("the acknowledgement thread was interrupted; pending commits are unknown");
          failQueued(new BatchFate.Unknown("was not acknowledged: the thread was interrupted", e));
          return;
        }
        if (work == null) {
          if (idleOwed) {
            publisher.publishIdle();
          }
          return;
        }
        if (work.isEmpty()) {
          idleOwed = false;
          publisher.publishIdle();
          continue;
        }
        try {
          answer(work);
        } catch (Throwable t) {
          LOG.error("the acknowledgement thread failed; the commits it held are unknown", t);
          BatchFate fate = new BatchFate.Unknown("was not acknowledged: the thread failed", t);
          for (Flushed f : work) {
            for (SubmittedBatch b : f.batches()) {
              fate.deliver(b.requests());
            }
          }
          setLastFate(fate);
          if (t instanceof Error e) {
            failQueued(fate);
            throw e;
          }
        }
      }
    } finally {
      if (publisher != null) {
        publisher.close();
      }
    }
  }

  /**
   * Everything handed over so far; an empty list when the writer has been idle for {@link
   * #IDLE_NANOS} and owes the long-lived checkpoint; null once closing and nothing is left.
   */
  private List<Flushed> next() throws InterruptedException {
    lock.lock();
    try {
      while (queue.isEmpty()) {
        if (closing) {
          return null;
        }
        if (idleOwed) {
          if (changed.awaitNanos(IDLE_NANOS) <= 0 && queue.isEmpty() && !closing) {
            return List.of();
          }
        } else {
          changed.await();
        }
      }
      List<Flushed> all = new ArrayList<>(queue);
      queue.clear();
      return all;
    } finally {
      lock.unlock();
    }
  }

  private void answer(List<Flushed> work) {
    RuntimeException publishFailure = null;
    if (publisher != null && anyDurable(work)) {
      for (Flushed f : work) {
        for (SubmittedBatch b : f.batches()) {
          for (CommitRequest r : b.requests()) {
            r.enter(Phase.AWAITING_PUBLICATION);
          }
        }
      }
      publishFailure = publisher.publish();
      idleOwed |= publishFailure == null;
    }
    BatchFate previous = lastFate();
    for (Flushed f : work) {
      for (SubmittedBatch b : f.batches()) {
        BatchFate fate = fateOf(b, f, previous, publishFailure);
        // Counted before the callers are released, so that a caller reading the statistics right
        // after its commit returned finds its own commit counted.
        if (fate instanceof BatchFate.Landed && b.wrote()) {
          acknowledged.addAndGet(b.weight());
        }
        fate.deliver(b.requests());
        previous = fate;
      }
    }
    setLastFate(previous);
  }

  private static BatchFate fateOf(
      SubmittedBatch b, Flushed f, BatchFate previous, RuntimeException publishFailure) {
    if (!b.wrote()) {
      return previous;
    }
    if (b.seqnum() <= f.durableSeqnum()) {
      return publishFailure == null
          ? BatchFate.LANDED
          : new BatchFate.Unknown(
              "is durable, but the checkpoint that was to cover it could not be published ("
                  + publishFailure.getMessage()
                  + ")",
              publishFailure);
    }
    return new BatchFate.Unknown(
        "was written to the store, but the log flush that makes it durable failed"
            + (f.failure() != null ? " (" + f.failure().getMessage() + ")" : ""),
        f.failure());
  }

  private static boolean anyDurable(List<Flushed> work) {
    for (Flushed f : work) {
      for (SubmittedBatch b : f.batches()) {
        if (b.wrote() && b.seqnum() <= f.durableSeqnum()) {
          return true;
        }
      }
    }
    return false;
  }

  private BatchFate lastFate() {
    return lastFate;
  }

  private void setLastFate(BatchFate fate) {
    lastFate = fate;
  }

  private void failQueued(BatchFate fate) {
    List<Flushed> left;
    lock.lock();
    try {
      left = new ArrayList<>(queue);
      queue.clear();
      closing = true;
    } finally {
      lock.unlock();
    }
    for (Flushed f : left) {
      for (SubmittedBatch b : f.batches()) {
        fate.deliver(b.requests());
      }
    }
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
