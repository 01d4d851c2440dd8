package dev.moraine.core.commit;

import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.CommitInterruptedException;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.view.CatalogReads;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer catalog's commit path: where a caller hands in its commit and waits for the answer. Two
 * threads of the catalog's own do the work: the commit thread ({@link Committer}: coalescing,
 * staging, submission, lost races) and the flush thread ({@link Flusher}: pacing, durability,
 * publication, acknowledgement). The calling thread only queues its commit and waits.
 *
 * <p>Interrupting a waiting caller: before its commit is sealed into a submitted batch, the commit
 * leaves (the batch is staged again without it if it had joined one) and the caller gets {@link
 * CommitInterruptedException}: nothing of it is written. After, the caller gets {@link
 * CommitOutcomeUnknownException} at once and the batch goes on untouched. Either way the interrupt
 * flag stays set.
 *
 * <p>Closing ({@link #close}) refuses new commits, fails the queued ones (nothing of them is
 * written), lets the commit thread finish the batch it holds, the flush thread flush and the
 * acknowledgement thread publish and answer everything handed to them, and waits for all three.
 */
public final class CommitPath implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommitPath.class);
  private static final AtomicLong IDS = new AtomicLong();

  /** How long {@link #close} waits for each thread before it gives up waiting (not the thread). */
  static final long CLOSE_WAIT_MILLIS = TimeUnit.MINUTES.toMillis(5);

  private final Admission admission = new Admission();
  private final Flusher flusher;
  private final Acknowledger acknowledger;
  private final Thread commitThread;
  private final Thread flushThread;
  private final Thread ackThread;
  private final long stallNanos;

  public CommitPath(KvStore store, CatalogReads reads, CommitSettings settings) {
    long id = IDS.incrementAndGet();
    this.stallNanos = Math.max(1, settings.stallReport().toNanos());
    FlushPacer pacer = new FlushPacer(settings.flushSpacing().toNanos());
    CheckpointPublisher publisher =
        settings.publishCheckpoints()
            ? new CheckpointPublisher(store, settings.checkpointLifetime(), "moraine-prune-" + id)
            : null;
    this.acknowledger = new Acknowledger(publisher);
    this.flusher = new Flusher(store, pacer, acknowledger);
    Committer committer = new Committer(store, reads, admission, flusher, settings.maxMembers());
    this.ackThread = daemon(acknowledger, "moraine-ack-" + id);
    this.flushThread = daemon(flusher, "moraine-flush-" + id);
    this.commitThread =
        daemon(
            () -> {
              try {
                committer.run();
              } finally {
                // However the thread ends, nobody may stay queued for it.
                failStranded("the commit thread stopped");
              }
            },
            "moraine-commit-" + id);
    ackThread.start();
    flushThread.start();
    commitThread.start();
  }

  private static Thread daemon(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Lands {@code works} as consecutive commits of one batch, each minting its own snapshot, or none
   * of them; returns one snapshot id per work. Blocks until the commits are durable and covered by
   * a published checkpoint (when publication is on), or have failed.
   */
  public List<Long> commit(List<CommitWork> works) {
    if (Thread.currentThread() == commitThread) {
      // It would wait for the very thread that runs it.
      throw new dev.moraine.core.catalog.InvalidArgumentException(
          "a commit body called commit on its own catalog; a body must not commit (nor wait for"
              + " a commit of the same catalog): it runs on the thread that commit needs");
    }
    CommitRequest request = admission.admit(works);
    long started = System.nanoTime();
    while (true) {
      try {
        return request.outcome.get(stallNanos, TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        throw rethrown(e.getCause());
      } catch (TimeoutException e) {
        long now = System.nanoTime();
        LOG.warn(
            "a commit has waited {} ms so far; it has been {} for {} ms",
            TimeUnit.NANOSECONDS.toMillis(now - started),
            request.phase(),
            TimeUnit.NANOSECONDS.toMillis(now - request.phaseSince()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return interrupted(request);
      }
    }
  }

  private List<Long> interrupted(CommitRequest request) {
    Admission.Leaving leaving = admission.leave(request);
    if (leaving.left()) {
      throw new CommitInterruptedException(
          "interrupted while the commit was "
              + request.phase()
              + ", before it was handed to the store; nothing of it was written");
    }
    if (request.outcome.isDone()) {
      try {
        return request.outcome.getNow(null);
      } catch (java.util.concurrent.CompletionException e) {
        throw rethrown(e.getCause());
      }
    }
    throw new CommitOutcomeUnknownException(
        "interrupted while the commit was "
            + request.phase()
            + ", after it was handed to the store; it may or may not land, wholly or not at all",
        null,
        leaving.attemptedSnapshotId());
  }

  private static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof RuntimeException r) {
      return r;
    }
    if (cause instanceof Error e) {
      throw e;
    }
    return new MoraineException(ErrorCode.INTERNAL, "a commit failed: " + cause, cause);
  }

  /** How many write-ahead-log flushes the path has asked the store for. */
  public long flushes() {
    return flusher.flushes();
  }

  /** How many checkpoints the path has published. */
  public long publications() {
    return acknowledger.publications();
  }

  /** How many commits the path has acknowledged as landed. */
  public long acknowledged() {
    return acknowledger.acknowledged();
  }

  @Override
  public void close() {
    failStranded("the catalog was closed before the commit joined a batch");
    join(commitThread);
    join(flushThread);
    join(ackThread);
  }

  private void failStranded(String why) {
    for (CommitRequest r : admission.close()) {
      r.outcome.completeExceptionally(
          new ClosedException(why + "; nothing of it was written", null));
    }
  }

  private static void join(Thread t) {
    if (t == Thread.currentThread()) {
      return;
    }
    try {
      t.join(CLOSE_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (t.isAlive()) {
      LOG.error(
          "{} did not finish within {} ms of the catalog's close", t.getName(), CLOSE_WAIT_MILLIS);
    }
  }
}
