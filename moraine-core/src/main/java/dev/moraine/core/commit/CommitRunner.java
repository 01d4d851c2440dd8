package dev.moraine.core.commit;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.SnapshotView;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit loop of RFC 0004 as built (docs/rfcs/0004-commit-core.md): per attempt, open a store
 * transaction, read the head and its snapshot record through it, run the closure against that
 * premise, stage, submit, and on a lost head race classify what won and either re-run or stop.
 *
 * <p>Why one store transaction per attempt, opened before the head is read: SlateDB refuses the
 * commit of a transaction any of whose written keys another write committed after the transaction
 * began. Every commit writes {@code sys/head}, so any commit that lands between this attempt's head
 * read and its submission makes the submission fail, and nothing of it is written. The premise the
 * closure saw is therefore exactly the state this attempt's write follows, or the write does not
 * happen. Reads of the premise itself go through the catalog's snapshot views; a view can only be
 * newer than the head read, never older, and a newer state means a commit landed after the
 * transaction began, which again makes the submission fail. A typed refusal from the closure ends
 * the attempt before any submission, so it is checked against the head read again afterwards: a
 * moved head makes it a lost race and the closure runs again ({@link #refusalAfterMovedHead}).
 *
 * <p>Thread-safe: commits from any number of threads race only in the store, which arbitrates by
 * the rule above; this class keeps no mutable state.
 */
public final class CommitRunner {
  private static final Logger LOG = LoggerFactory.getLogger(CommitRunner.class);

  /** How many attempts a commit gets before it reports an exhausted budget. */
  static final int MAX_ATTEMPTS = 10;

  private static final long BACKOFF_BASE_MICROS = 2_000;
  private static final long BACKOFF_CAP_MICROS = 50_000;

  private final KvStore store;
  private final CatalogReads reads;

  public CommitRunner(KvStore store, CatalogReads reads) {
    this.store = store;
    this.reads = reads;
  }

  public long commit(CommitWork work) {
    HeadValue firstHead = null;
    List<Long> lostTo = new ArrayList<>();
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        sleep(backoffMicros(attempt));
      }
      Attempt result = attempt(work);
      if (result.landed()) {
        return result.snapshotId();
      }
      if (firstHead == null) {
        firstHead = result.premiseHead();
      }
      lostTo.addAll(result.winners());
    }
    String lost = lostTo.isEmpty() ? "batches that minted no snapshot" : "snapshots " + lostTo;
    LOG.warn(
        "commit gave up after {} attempts; it started at head snapshot {} and lost to {}",
        MAX_ATTEMPTS,
        Long.toUnsignedString(firstHead.getSnapshotId()),
        lost);
    throw new RetryBudgetExhaustedException(
        "commit gave up after "
            + MAX_ATTEMPTS
            + " attempts, each overtaken by other commits; it started at head snapshot "
            + Long.toUnsignedString(firstHead.getSnapshotId())
            + " and was overtaken by "
            + lost
            + "; nothing of it was written");
  }

  /** The outcome of one attempt that did not throw. */
  private record Attempt(
      boolean landed, long snapshotId, HeadValue premiseHead, List<Long> winners) {}

  private Attempt attempt(CommitWork work) {
    reads.ensureOpen();
    HeadValue head;
    StagedCommit staged;
    SnapshotView premise;
    try (KvTransaction tx = KvErrors.translate("beginning a commit", store::begin)) {
      SnapshotValue record;
      SnapshotView held;
      try {
        head = CatalogReads.readHead(tx);
        // A view already standing at exactly this head holds the head's snapshot record (a
        // snapshot's record never changes once written), so only a new head costs a read of it.
        held = reads.heldAt(head);
        record = held != null ? held.record() : CatalogReads.readSnapshot(tx, head.getSnapshotId());
      } catch (RuntimeException e) {
        throw KvErrors.map("reading the head for a commit", e);
      }
      if (record == null) {
        throw new CorruptionException(
            "the head names snapshot "
                + Long.toUnsignedString(head.getSnapshotId())
                + " but its record is missing");
      }
      premise = held != null ? held : reads.viewAtHead(head, record);
      // The closure's exceptions reach the caller as they are, but for a typed refusal resting on a
      // state newer than the premise (see refusalAfterMovedHead); closing the store transaction
      // discards anything buffered (nothing is, yet: staging follows the closure).
      Draft draft;
      try {
        draft = work.run(premise, record);
      } catch (InvalidArgumentException | AlreadyExistsException | NotFoundException refusal) {
        List<Long> winners = refusalAfterMovedHead(head, refusal);
        return new Attempt(false, 0, head, winners);
      }
      staged = CommitStager.stage(head, record, draft, nowMicros());
      if (staged.isEmpty()) {
        return new Attempt(true, head.getSnapshotId(), head, List.of());
      }
      try {
        tx.putAll(staged.batch());
      } catch (RuntimeException e) {
        throw KvErrors.map("staging a commit", e);
      }
      try {
        tx.commit();
      } catch (KvTransactionConflictException lost) {
        List<Long> winners = classify(head, premise, record, staged);
        return new Attempt(false, 0, head, winners);
      } catch (KvOutcomeUnknownException unknown) {
        throw unknownOutcome(staged, unknown);
      } catch (RuntimeException e) {
        // Refused before anything was handed over (closed, fenced, invalid): nothing written.
        throw KvErrors.map("committing", e);
      }
    }
    // Applied; now durable. Any failure from here on leaves the commit possibly durable.
    try {
      store.flushWal();
    } catch (RuntimeException e) {
      throw unknownOutcome(staged, e);
    }
    // Landed and durable: the next commit's premise is this one's plus what it wrote.
    if (staged.landing() != null) {
      reads.installLanded(premise, staged.landing());
    }
    return new Attempt(true, staged.newHead().getSnapshotId(), head, List.of());
  }

  /**
   * A typed refusal escaped the closure. Some premise reads are not pinned to the attempt's store
   * transaction: inlined rows and the premise view's demand loads read the store as it is now. A
   * commit landing after this attempt's head read (a flush, say, which deletes inlined chunks and
   * backdates a data file) can therefore make the closure refuse on a state newer than its premise.
   * Such a refusal is a lost race, like a failed submission: this returns the snapshots minted
   * since the premise, and the caller re-runs the closure on the new head.
   *
   * <p>Why a head that has not moved makes the refusal sound: the head is read here after the
   * closure returned, and every batch that changes what a premise read can reach also writes {@code
   * sys/head} (RFC 0002 §12.2). An unchanged head therefore means nothing landed between the
   * attempt's head read and this read, so every read the closure made saw exactly the premise, and
   * the refusal reaches the caller unchanged (thrown from here).
   *
   * @throws MoraineException {@code refusal} itself when the head has not moved; nothing was
   *     written
   */
  private List<Long> refusalAfterMovedHead(HeadValue premiseHead, MoraineException refusal) {
    Head now;
    try {
      now = reads.head();
    } catch (MoraineException e) {
      // The head cannot be read (closed, store unavailable): report the refusal as it was made.
      refusal.addSuppressed(e);
      throw refusal;
    }
    if (now.batchSeq() == premiseHead.getBatchSeq()) {
      throw refusal;
    }
    List<Long> minted = new ArrayList<>();
    for (long id = premiseHead.getSnapshotId() + 1;
        Long.compareUnsigned(id, now.snapshotId()) <= 0;
        id++) {
      minted.add(id);
    }
    LOG.debug(
        "a closure refused at head snapshot {} while the head moved to {}; re-running it: {}",
        Long.toUnsignedString(premiseHead.getSnapshotId()),
        Long.toUnsignedString(now.snapshotId()),
        refusal.getMessage());
    return minted;
  }

  /**
   * After a lost race: the commits that won it, classified against this attempt's change set.
   * Returns the winners' snapshot ids when the race was benign; throws {@link
   * CommitConflictException} when it was not.
   */
  private List<Long> classify(
      HeadValue premiseHead, SnapshotView premise, SnapshotValue record, StagedCommit staged) {
    if (!staged.mintsSnapshot()) {
      // Options are last-write-wins: an options-only commit never conflicts.
      return List.of();
    }
    InterveningChanges intervening =
        reads.load(
            "reading the commits that won a race",
            v -> InterveningChanges.read(v, premiseHead.getSnapshotId()));
    String conflict = intervening.conflictWith(staged, premise, record);
    if (conflict != null) {
      throw new CommitConflictException(conflict);
    }
    return intervening.snapshotIds();
  }

  private static CommitOutcomeUnknownException unknownOutcome(
      StagedCommit staged, RuntimeException cause) {
    return new CommitOutcomeUnknownException(
        "the commit of "
            + (staged.mintsSnapshot()
                ? "snapshot " + Long.toUnsignedString(staged.newHead().getSnapshotId())
                : "option changes")
            + " failed after it reached the store; it may or may not have landed: "
            + cause.getMessage(),
        cause,
        staged.mintsSnapshot()
            ? OptionalLong.of(staged.newHead().getSnapshotId())
            : OptionalLong.empty());
  }

  /**
   * The wait before attempt {@code attempt} (1-based retries): 2 ms doubling per retry, capped at
   * 50 ms, plus up to 2 ms of jitter so that two committers that just collided do not retry in
   * step.
   */
  static long backoffMicros(int attempt) {
    long step = Math.min(BACKOFF_CAP_MICROS, BACKOFF_BASE_MICROS << Math.min(attempt - 1, 20));
    return step + ThreadLocalRandom.current().nextLong(BACKOFF_BASE_MICROS);
  }

  private static void sleep(long micros) {
    try {
      TimeUnit.MICROSECONDS.sleep(micros);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException(
          "interrupted while waiting to retry a commit; nothing of it was written");
    }
  }

  private static long nowMicros() {
    Instant now = Clock.systemUTC().instant();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
  }
}
