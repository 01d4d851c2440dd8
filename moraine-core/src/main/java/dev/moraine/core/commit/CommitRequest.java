package dev.moraine.core.commit;

import dev.moraine.core.keyspace.proto.HeadValue;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * One caller's commit on its way through the path: the works it hands in (one for {@code commit},
 * several for {@code commitGroup}, which land together or not at all), and the future its caller
 * waits on, completed once with one snapshot id per work or with the commit's exception.
 *
 * <p>Who touches what: {@link #state} is guarded by the path's admission lock ({@link CommitPath}),
 * because the caller (leaving on an interrupt) and the commit thread (taking, sealing) both move
 * it. The attempt bookkeeping and the results of the current attempt are the commit thread's alone,
 * and are read by the flush thread only after the commit thread handed the batch over (through the
 * flusher's lock, which orders the two). {@link #phase} is written by whichever thread moves the
 * commit on and read by the waiting caller for stall reports.
 */
final class CommitRequest {
  /** Where the request stands, as far as leaving is concerned. */
  enum State {
    /** In the admission queue. */
    QUEUED,
    /** Taken into a batch that has not been sealed. */
    IN_BATCH,
    /** Its batch was sealed for submission: from here on its outcome may be that it landed. */
    SUBMITTED,
    /** Its caller stopped waiting before submission; nothing of it is written. */
    LEFT
  }

  final List<CommitWork> works;
  final CompletableFuture<List<Long>> outcome = new CompletableFuture<>();

  /** Whether it must be the first member of its batch ({@link CommitWork#commitsAlone}). */
  final boolean alone;

  /** Guarded by the path's admission lock. */
  State state = State.QUEUED;

  private volatile Phase phase = Phase.ADMITTING;
  private volatile long phaseSince = System.nanoTime();

  // ---- the commit thread's own ----------------------------------------------------------------

  /** Attempts that did not land, so far. */
  int failedAttempts;

  /** The head the first attempt started at, for the exhausted-budget report. */
  HeadValue firstHead;

  /** The snapshots that won the races this commit lost. */
  final List<Long> lostTo = new ArrayList<>();

  /** What the current attempt staged, one entry per work (null for a work that wrote nothing). */
  final List<StagedCommit> staged = new ArrayList<>();

  /** The snapshot id each work of the current attempt returns if the attempt lands. */
  long[] snapshotIds;

  /** Whether the current attempt put anything into its batch's transaction. */
  boolean wrote;

  /**
   * What a work of the current attempt threw, delivered when the attempt's premise is known to have
   * landed (the refusal may rest on commits staged before it in the same batch).
   */
  Throwable thrown;

  /**
   * Whether the request threw after an earlier work of it had buffered writes: the batch was staged
   * again without it, and it stays out, with {@link #thrown}, until its batch's outcome.
   */
  boolean withdrawn;

  CommitRequest(List<CommitWork> works) {
    this.works = List.copyOf(works);
    this.alone = this.works.stream().anyMatch(CommitWork::commitsAlone);
  }

  /** Forgets the current attempt's results, before the request is staged (again). */
  void resetAttempt() {
    staged.clear();
    snapshotIds = null;
    wrote = false;
    thrown = null;
  }

  /** The first snapshot the current attempt would mint, for an unknown outcome's report. */
  OptionalLong attemptedSnapshotId() {
    for (StagedCommit s : staged) {
      if (s != null && s.mintsSnapshot()) {
        return OptionalLong.of(s.newHead().getSnapshotId());
      }
    }
    return OptionalLong.empty();
  }

  void enter(Phase next) {
    phaseSince = System.nanoTime();
    phase = next;
  }

  Phase phase() {
    return phase;
  }

  long phaseSince() {
    return phaseSince;
  }
}
