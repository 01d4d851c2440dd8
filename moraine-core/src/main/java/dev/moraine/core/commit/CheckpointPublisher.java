package dev.moraine.core.commit;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvFencedException;
import dev.moraine.core.kv.KvStore;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publication (the commit RFC, "Checkpoint publication before acknowledgement"): after a flush, a
 * durable checkpoint covering every write durable by then is written to the store's manifest, and
 * only then are the flush's commits acknowledged, so that a reader opened afterwards, however it
 * opens, finds them. One publication covers a whole flush.
 *
 * <p>The live set stays small without a deletion per publication. Each publication rewrites a
 * manifest that lists every live checkpoint, so its cost grows with their number; but deleting one
 * (SlateDB's {@code Admin}) lists the whole manifest directory first, whose length grows with the
 * flush rate, so a deletion per flush would cost more than the publication it tidies. Instead:
 *
 * <ul>
 *   <li>the checkpoint of each flush lives {@link #FLUSH_LIFETIME}, and the store's garbage
 *       collector, which runs on the manifest directory twice a second in a writer's store, drops
 *       the expired ones in one manifest update a run; so the live set is about the last ten
 *       seconds of flushes, whatever the run's length;
 *   <li>when the writer falls idle (no flush for {@link Flusher#IDLE_NANOS}) and when it closes,
 *       one checkpoint covering everything durable is published with the catalog's long lifetime
 *       ({@code CatalogOptions.checkpointLifetime}), so that the last commits stay covered after
 *       the short-lived ones expired; the long-lived one it supersedes is deleted then, on the
 *       catalog's prune thread ({@code moraine-prune-<n>}), never on the way to an acknowledgement.
 * </ul>
 *
 * <p>Concurrency: {@link #publish} and {@link #publishIdle} are the flush thread's; the prune
 * thread only deletes the id it is handed. {@link #lastIdle} is the flush thread's alone.
 */
final class CheckpointPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointPublisher.class);

  /** Attempts at one publication before its commits are reported as unknown. */
  static final int ATTEMPTS = 3;

  /** How long the checkpoint published for one flush lives. */
  static final Duration FLUSH_LIFETIME = Duration.ofSeconds(1);

  private final KvStore store;
  private final Duration idleLifetime;
  private final AtomicLong publications = new AtomicLong();
  private final ExecutorService pruner;
  private CheckpointId lastIdle;
  private RuntimeException lastFailure;

  CheckpointPublisher(KvStore store, Duration idleLifetime, String threadName) {
    this.store = store;
    this.idleLifetime = idleLifetime;
    this.pruner =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Publishes a checkpoint covering every write durable now, for one flush. Returns null once it is
   * published, else the last failure (after {@link #ATTEMPTS} attempts, or at once when the store
   * is fenced or closed): the commits it was to cover are durable, but may not be found by a
   * reader.
   */
  RuntimeException publish() {
    return create(FLUSH_LIFETIME) == null ? lastFailure : null;
  }

  /**
   * Publishes the long-lived checkpoint of an idle (or closing) writer, covering everything
   * durable, and has the one it supersedes deleted. A failure is logged: the commits are already
   * answered, and the short-lived checkpoints cover them until they expire.
   */
  void publishIdle() {
    CheckpointId id = create(idleLifetime);
    if (id == null) {
      LOG.warn("publishing the idle writer's checkpoint failed: {}", lastFailure.getMessage());
      return;
    }
    CheckpointId superseded = lastIdle;
    lastIdle = id;
    if (superseded != null) {
      try {
        pruner.execute(() -> delete(superseded));
      } catch (RejectedExecutionException closing) {
        delete(superseded);
      }
    }
  }

  private CheckpointId create(Duration lifetime) {
    lastFailure = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        CheckpointId id = store.createCheckpoint(lifetime);
        publications.incrementAndGet();
        return id;
      } catch (KvFencedException | KvClosedException dead) {
        lastFailure = dead;
        return null;
      } catch (RuntimeException e) {
        lastFailure = e;
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
    return null;
  }

  private void delete(CheckpointId id) {
    try {
      store.deleteCheckpoint(id);
    } catch (RuntimeException e) {
      // It expires on its own (its lifetime), and the store's collector drops it then.
      LOG.debug("deleting superseded checkpoint {} failed: {}", id, e.getMessage());
    }
  }

  /** How many checkpoints this writer has published. */
  long publications() {
    return publications.get();
  }

  /** Stops the prune thread, once it has deleted what it was handed. */
  @Override
  public void close() {
    pruner.shutdown();
    try {
      pruner.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void pause(long micros) {
    try {
      TimeUnit.MICROSECONDS.sleep(micros);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
