package dev.moraine.core.commit;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.InterveningChanges;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit thread: coalescing, staging, submission, and the classification and retry of a lost
 * race. It takes the first waiting commit, opens a batch on the head, stages it, and keeps taking
 * and staging the commits that arrive meanwhile until nobody is waiting or the batch holds {@link
 * CommitSettings#maxMembers()} commits; then it seals the batch, writes it as one atomic store
 * write, and hands it to the flush thread, which makes it durable and answers its callers. While
 * the flush thread waits for the object store, this thread forms and writes the next batch, which
 * rides the same flush or the next.
 *
 * <p>One batch is submitted at a time, by this thread: the submission slot is this thread itself,
 * so nothing has to release it, and an exception in one batch ends that batch (its callers are
 * answered) and the thread goes on to the next. Every closure runs here, never on its caller's
 * thread, so a caller that is interrupted or gives up never strands the commits it shares a batch
 * with.
 *
 * <p>A lost race (another writer of the store committed after the batch began) is judged commit by
 * commit against the snapshots that won it: a commit whose changes conflict by DuckLake's rules
 * fails alone with {@link CommitConflictException}; every other one runs again, in a new batch on
 * the new head, after the retry policy's wait, up to its budget.
 */
final class Committer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Committer.class);

  private final KvStore store;
  private final CatalogReads reads;
  private final Admission admission;
  private final Flusher flusher;
  private final int maxMembers;

  /** Whether the batch in hand was handed to the store (its write may exist). This thread's. */
  private boolean handedOver;

  Committer(
      KvStore store, CatalogReads reads, Admission admission, Flusher flusher, int maxMembers) {
    this.store = store;
    this.reads = reads;
    this.admission = admission;
    this.flusher = flusher;
    this.maxMembers = maxMembers;
  }

  @Override
  public void run() {
    try {
      while (true) {
        CommitRequest first;
        try {
          first = admission.takeFirst();
        } catch (InterruptedException e) {
          LOG.warn("the commit thread was interrupted; it stops taking commits");
          return;
        }
        if (first == null) {
          return;
        }
        List<CommitRequest> members = new ArrayList<>();
        members.add(first);
        runBatch(members);
      }
    } finally {
      flusher.close();
    }
  }

  /** Lands {@code members} and whoever joins them, re-running them after a lost race. */
  private void runBatch(List<CommitRequest> members) {
    while (!members.isEmpty()) {
      try {
        members = attempt(members);
      } catch (VirtualMachineError fatal) {
        answerAfterFailure(members, fatal);
        throw fatal;
      } catch (Throwable t) {
        LOG.error("the commit thread failed on a batch; its commits are answered", t);
        answerAfterFailure(members, t);
        return;
      }
    }
  }

  /**
   * One attempt at one batch. Returns the commits to run again in a new batch (after a lost race,
   * or when the batch had to be staged again), none when every member was answered or handed on.
   */
  private List<CommitRequest> attempt(List<CommitRequest> members) {
    handedOver = false;
    Batch batch;
    try {
      batch = Batch.open(store, reads);
    } catch (RuntimeException e) {
      new BatchFate.NotWritten(KvErrors.map("beginning a commit", e)).deliver(members);
      return List.of();
    }
    try {
      for (CommitRequest r : members) {
        if (!admission.hasLeft(r)) {
          batch.stage(r);
          yieldIfLost(r);
        }
      }
      while (batch.members() < maxMembers) {
        CommitRequest next = admission.takeNext();
        if (next == null) {
          break;
        }
        members.add(next);
        batch.stage(next);
        yieldIfLost(next);
      }
      if (batch.mustRestage() || !admission.seal(batch.requests())) {
        // A commit left (or withdrew with writes buffered): start over without it. Those that
        // left were answered by their callers; nothing of them is written.
        List<CommitRequest> again = new ArrayList<>();
        for (CommitRequest r : batch.requests()) {
          if (!admission.hasLeft(r)) {
            again.add(r);
          }
        }
        return again;
      }
      return submit(batch);
    } catch (Batch.StoreFailure failure) {
      new BatchFate.NotWritten(failure.failure()).deliver(members);
      return List.of();
    } finally {
      batch.close();
    }
  }

  /**
   * A commit that cannot be rebased and was refused as a lost race while staging (its rows rest on
   * a head the lake has moved past): its caller re-drives it after a fresh read, and arrivals yield
   * a quarter second to that re-drive, so that a stream of commits does not overtake it every time.
   */
  private void yieldIfLost(CommitRequest r) {
    if (r.alone && r.thrown instanceof CommitConflictException) {
      admission.yieldArrivals(YIELD_NANOS);
    }
  }

  /** How long arrivals yield to the re-drive of a lost non-rebasable commit. */
  static final long YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** Writes a sealed batch and hands it on; returns the commits to run again after a lost race. */
  private List<CommitRequest> submit(Batch batch) {
    List<CommitRequest> requests = batch.requests();
    if (!batch.writes()) {
      flusher.submitted(new SubmittedBatch(requests, batch.members(), -1, System.nanoTime()));
      return List.of();
    }
    WriteReceipt receipt;
    handedOver = true;
    try {
      receipt = batch.commit();
    } catch (KvTransactionConflictException lost) {
      return lostRace(batch);
    } catch (KvOutcomeUnknownException unknown) {
      new BatchFate.Unknown(
              "failed after it reached the store (" + unknown.getMessage() + ")", unknown)
          .deliver(requests);
      return List.of();
    } catch (RuntimeException refused) {
      // Refused before anything was handed over (closed, fenced, invalid): nothing written.
      new BatchFate.NotWritten(KvErrors.map("committing", refused)).deliver(requests);
      return List.of();
    }
    batch.landed(reads);
    for (CommitRequest r : requests) {
      r.enter(Phase.AWAITING_DURABILITY);
    }
    flusher.submitted(
        new SubmittedBatch(requests, batch.members(), receipt.seqnum(), System.nanoTime()));
    return List.of();
  }

  /**
   * The batch lost the race for the head: nothing of it was written. Each commit is judged against
   * the snapshots that won; those that may run again are returned, after the retry wait.
   */
  private List<CommitRequest> lostRace(Batch batch) {
    List<CommitRequest> requests = batch.requests();
    InterveningChanges winners;
    try {
      winners =
          reads.load(
              "reading the commits that won a race",
              v -> InterveningChanges.read(v, batch.baseHead().getSnapshotId()));
    } catch (MoraineException e) {
      new BatchFate.NotWritten(e).deliver(requests);
      return List.of();
    }
    List<String> conflicts = new ArrayList<>();
    try {
      for (CommitRequest r : requests) {
        conflicts.add(r.thrown == null ? conflictOf(r, winners, batch) : null);
      }
    } catch (MoraineException e) {
      new BatchFate.NotWritten(e).deliver(requests);
      return List.of();
    }
    List<CommitRequest> again = new ArrayList<>();
    int mostAttempts = 0;
    for (int i = 0; i < requests.size(); i++) {
      CommitRequest r = requests.get(i);
      if (r.firstHead == null) {
        r.firstHead = batch.baseHead();
      }
      r.failedAttempts++;
      r.lostTo.addAll(winners.snapshotIds());
      String conflict = conflicts.get(i);
      if (conflict != null) {
        r.outcome.completeExceptionally(new CommitConflictException(conflict));
      } else if (!RetryPolicy.mayRetry(r.failedAttempts)) {
        r.outcome.completeExceptionally(exhausted(r));
      } else {
        // A commit whose work threw runs again too: what it threw may rest on a member staged
        // before it that has not landed.
        r.thrown = null;
        r.withdrawn = false;
        again.add(r);
        mostAttempts = Math.max(mostAttempts, r.failedAttempts);
      }
    }
    if (!again.isEmpty()) {
      admission.reopen(again);
      pause(RetryPolicy.backoffMicros(mostAttempts));
    }
    return again;
  }

  /** Why {@code r}'s changes cannot follow the winners, or null when they can. */
  private static String conflictOf(CommitRequest r, InterveningChanges winners, Batch batch) {
    for (StagedCommit s : r.staged) {
      // Options are last-write-wins and never conflict.
      if (s != null && s.mintsSnapshot()) {
        String conflict =
            winners.conflictWith(
                s.changes(),
                s.deletedDataFileIds(),
                batch.baseView(),
                batch.baseRecord().getNextCatalogId());
        if (conflict != null) {
          return conflict;
        }
      }
    }
    return null;
  }

  private static RetryBudgetExhaustedException exhausted(CommitRequest r) {
    String lost = r.lostTo.isEmpty() ? "batches that minted no snapshot" : "snapshots " + r.lostTo;
    String start = Long.toUnsignedString(r.firstHead.getSnapshotId());
    LOG.warn(
        "commit gave up after {} attempts; it started at head snapshot {} and lost to {}",
        r.failedAttempts,
        start,
        lost);
    return new RetryBudgetExhaustedException(
        "commit gave up after "
            + r.failedAttempts
            + " attempts, each overtaken by other commits; it started at head snapshot "
            + start
            + " and was overtaken by "
            + lost
            + "; nothing of it was written");
  }

  /**
   * Answers the commits of a batch this thread failed on: nothing of them was written unless the
   * batch had been handed to the store, and then their outcome is unknown.
   */
  private void answerAfterFailure(List<CommitRequest> members, Throwable t) {
    BatchFate fate =
        handedOver
            ? new BatchFate.Unknown("was not answered: the commit thread failed", t)
            : new BatchFate.NotWritten(
                t instanceof MoraineException m
                    ? m
                    : new MoraineException(
                        dev.moraine.core.catalog.ErrorCode.INTERNAL,
                        "the commit thread failed before the commit was written: " + t,
                        t));
    for (CommitRequest r : members) {
      if (!r.outcome.isDone()) {
        fate.deliver(List.of(r));
      }
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
