package dev.moraine.core.commit;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publication (the commit RFC, "Checkpoint publication before acknowledgement"): after a flush, a
 * durable checkpoint covering every write durable by then is written to the store's manifest, and
 * only then are the flush's commits acknowledged, so that a reader opened afterwards, however it
 * opens, finds them. One publication covers a whole flush.
 *
 * <p>Each publication rewrites a manifest that lists every live checkpoint, so its cost grows with
 * their number; the checkpoints this writer published are therefore deleted once a newer one covers
 * them ({@link #prune}), keeping the live set at a few.
 *
 * <p>Confined to the flush thread.
 */
final class CheckpointPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointPublisher.class);

  /** Attempts at one publication before its commits are reported as unknown. */
  static final int ATTEMPTS = 3;

  private final KvStore store;
  private final Duration lifetime;
  private final Deque<CheckpointId> published = new ArrayDeque<>();
  private long publications;

  CheckpointPublisher(KvStore store, Duration lifetime) {
    this.store = store;
    this.lifetime = lifetime;
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
        published.addLast(store.createCheckpoint(lifetime));
        publications++;
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
   * Deletes up to {@code max} of the checkpoints this writer published that a newer one covers
   * (every one but the newest), oldest first. A deletion that fails is left for a later call.
   */
  void prune(int max) {
    for (int i = 0; i < max && published.size() > 1; i++) {
      CheckpointId oldest = published.peekFirst();
      try {
        store.deleteCheckpoint(oldest);
        published.removeFirst();
      } catch (RuntimeException e) {
        LOG.debug("deleting superseded checkpoint {} failed: {}", oldest, e.getMessage());
        return;
      }
    }
  }

  /** How many of this writer's published checkpoints are live (not yet deleted). */
  int live() {
    return published.size();
  }

  /** How many checkpoints this writer has published. */
  long publications() {
    return publications;
  }

  private static void pause(long micros) {
    try {
      TimeUnit.MICROSECONDS.sleep(micros);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
