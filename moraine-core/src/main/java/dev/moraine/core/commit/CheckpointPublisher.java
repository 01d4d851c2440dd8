package dev.moraine.core.commit;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publication (the commit RFC, "Checkpoint publication before acknowledgement"): after a flush, a
 * durable checkpoint covering every write durable by then is written to the store's manifest, and
 * only then are the flush's commits acknowledged, so that a reader opened afterwards, however it
 * opens, finds them. One publication covers a whole flush.
 *
 * <p>Each publication rewrites a manifest that lists every live checkpoint, so its cost grows with
 * their number: the checkpoints this writer published are deleted once a newer one covers them.
 * Deleting is a manifest update too, so it runs on a thread of its own ({@code moraine-prune-<n>}),
 * never on the flush thread's way to an acknowledgement; should it fall behind by {@link #MAX_LIVE}
 * checkpoints, the flush thread waits for it, so the live set stays bounded.
 *
 * <p>Concurrency: {@link #published} is guarded by its own monitor: the flush thread adds to it,
 * the prune thread removes from it (and deletes outside the monitor). {@link #pruneQueued} keeps at
 * most one prune task queued: a task takes it down before it looks at the set, so a publication
 * made while a task runs queues the next one, and none is missed.
 */
final class CheckpointPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointPublisher.class);

  /** Attempts at one publication before its commits are reported as unknown. */
  static final int ATTEMPTS = 3;

  /** The most checkpoints of this writer left live while the prune thread catches up. */
  static final int MAX_LIVE = 16;

  private final KvStore store;
  private final Duration lifetime;
  private final Deque<CheckpointId> published = new ArrayDeque<>();
  private final AtomicBoolean pruneQueued = new AtomicBoolean();
  private final AtomicLong publications = new AtomicLong();
  private final ExecutorService pruner;

  CheckpointPublisher(KvStore store, Duration lifetime, String threadName) {
    this.store = store;
    this.lifetime = lifetime;
    this.pruner =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Publishes a checkpoint covering every write durable now. Returns null once it is published,
   * else the last failure (after {@link #ATTEMPTS} attempts, or at once when the store is fenced or
   * closed): the commits it was to cover are durable, but may not be found by a reader.
   */
  RuntimeException publish() {
    RuntimeException last = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        CheckpointId id = store.createCheckpoint(lifetime);
        int live;
        synchronized (published) {
          published.addLast(id);
          live = published.size();
        }
        publications.incrementAndGet();
        if (live > MAX_LIVE) {
          // The prune thread fell behind: delete here, so the manifest stays small.
          prune();
        } else if (live > 1 && pruneQueued.compareAndSet(false, true)) {
          try {
            pruner.execute(
                () -> {
                  pruneQueued.set(false);
                  prune();
                });
          } catch (RejectedExecutionException closed) {
            pruneQueued.set(false);
          }
        }
        return null;
      } catch (KvFencedException | KvClosedException dead) {
        return dead;
      } catch (RuntimeException e) {
        last = e;
        LOG.warn(
            "publishing a checkpoint failed (attempt {} of {}): {}",
            attempt,
            ATTEMPTS,
            e.getMessage());
        if (attempt < ATTEMPTS) {
          pause(RetryPolicy.backoffMicros(attempt));
        }
      }
    }
    return last;
  }

  /**
   * Deletes the checkpoints this writer published that a newer one covers (every one but the
   * newest), oldest first. A deletion that fails is left for a later call.
   */
  void prune() {
    while (true) {
      CheckpointId oldest;
      synchronized (published) {
        if (published.size() <= 1) {
          return;
        }
        oldest = published.peekFirst();
      }
      try {
        store.deleteCheckpoint(oldest);
      } catch (RuntimeException e) {
        LOG.debug("deleting superseded checkpoint {} failed: {}", oldest, e.getMessage());
        return;
      }
      synchronized (published) {
        published.remove(oldest);
      }
    }
  }

  /** How many of this writer's published checkpoints are live (not yet deleted). */
  int live() {
    synchronized (published) {
      return published.size();
    }
  }

  /** How many checkpoints this writer has published. */
  long publications() {
    return publications.get();
  }

  /** Stops the prune thread, after a last prune of what it had left. */
  @Override
  public void close() {
    pruner.shutdown();
    try {
      pruner.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    prune();
  }

  private static void pause(long micros) {
    try {
      TimeUnit.MICROSECONDS.sleep(micros);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
