package dev.moraine.core.commit;

import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.LandedCommit;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.core.view.ViewState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One batch of commits: a store transaction begun on the head, and the members staged into it one
 * after the other, each against the premise the members before it left (the commit RFC, "Group
 * commit": member i allocates its ids and meets its name collisions against everything members
 * 1..i-1 did). The transaction's one commit then writes them all as one atomic SlateDB write.
 *
 * <p>The premise. The first member's premise is the catalog's head view at the head the transaction
 * read, with what it has loaded; every later member's is the one before it with that member's
 * records put in place ({@link LandedCommit#carry}), at that member's snapshot and head. All of
 * them load what they lack through the transaction ({@link BatchReads}), which shows the head the
 * batch began at with the members' buffered writes on top. So every read a member makes is a read
 * of exactly its premise, whatever lands in the store meanwhile; and anything that lands meanwhile
 * writes {@code sys/head}, as every batch does, and makes this batch's commit fail as a lost race,
 * with nothing written.
 *
 * <p>Each member stages its own {@code sys/head}, one batch sequence above the member before it;
 * the last one stands (the transaction keeps the last write of a key), as the Rust implementation
 * writes a group.
 *
 * <p>Confined to the commit thread, apart from its {@link BatchReads}, which guards itself.
 */
final class Batch {
  private final KvTransaction txn;
  private final BatchReads reads;
  private final HeadValue baseHead;
  private final SnapshotValue baseRecord;
  private final SnapshotView baseView;
  private final List<CommitRequest> requests = new ArrayList<>();
  private SnapshotView premise;
  private HeadValue head;
  private int members;
  private boolean writes;
  private boolean mustRestage;

  private Batch(KvTransaction txn, HeadValue head, SnapshotValue record, SnapshotView held) {
    this.txn = txn;
    this.reads = new BatchReads(txn);
    this.baseHead = head;
    this.baseRecord = record;
    this.baseView = held;
    this.head = head;
    this.premise = new SnapshotView(reads, record, held.head(), held.state());
  }

  /**
   * Begins a batch: a store transaction, and through it the head and the head's snapshot record.
   *
   * @throws dev.moraine.core.catalog.MoraineException if the store fails or the head is damaged;
   *     nothing was written
   */
  static Batch open(KvStore store, CatalogReads catalog) {
    KvTransaction txn = KvErrors.translate("beginning a commit", store::begin);
    try {
      HeadValue head = CatalogReads.readHead(txn);
      // A view already standing at exactly this head holds the head's snapshot record (a
      // snapshot's record never changes once written), so only a new head costs a read of it.
      SnapshotView held = catalog.heldAt(head);
      SnapshotValue record =
          held != null ? held.record() : CatalogReads.readSnapshot(txn, head.getSnapshotId());
      if (record == null) {
        throw new CorruptionException(
            "the head names snapshot "
                + Long.toUnsignedString(head.getSnapshotId())
                + " but its record is missing");
      }
      SnapshotView base = held != null ? held : catalog.viewAtHead(head, record);
      return new Batch(txn, head, record, base);
    } catch (RuntimeException e) {
      txn.close();
      throw KvErrors.map("reading the head for a commit", e);
    }
  }

  /**
   * Stages one request: runs each of its works against the premise so far and buffers what it
   * wrote. A work that throws withdraws the whole request (its works land together or not at all)
   * and the throwable is kept on the request, to be delivered once the batch's outcome shows
   * whether the premise it rests on landed; nothing of it stays staged, except when an earlier work
   * of the same request already buffered writes, which a transaction cannot take back: then the
   * batch must be staged again without it ({@link #mustRestage}).
   *
   * @throws StoreFailure if buffering into the transaction failed: the batch cannot go on
   */
  void stage(CommitRequest request) {
    requests.add(request);
    members += request.works.size();
    if (request.withdrawn) {
      // Withdrawn from an earlier staging of this batch, with its throwable: it stays out.
      return;
    }
    request.resetAttempt();
    SnapshotView premiseBefore = premise;
    HeadValue headBefore = head;
    long[] ids = new long[request.works.size()];
    try {
      for (int k = 0; k < ids.length; k++) {
        Draft draft = request.works.get(k).run(premise, premise.record());
        StagedCommit staged = CommitStager.stage(head, premise.record(), draft, nowMicros());
        request.staged.add(staged.isEmpty() ? null : staged);
        if (staged.isEmpty()) {
          ids[k] = head.getSnapshotId();
          continue;
        }
        buffer(staged);
        request.wrote = true;
        ids[k] = staged.newHead().getSnapshotId();
        fold(staged);
      }
      request.snapshotIds = ids;
      writes |= request.wrote;
    } catch (StoreFailure failure) {
      throw failure;
    } catch (Throwable thrown) {
      request.thrown = thrown;
      request.staged.clear();
      if (request.wrote) {
        request.wrote = false;
        request.withdrawn = true;
        mustRestage = true;
      } else {
        premise = premiseBefore;
        head = headBefore;
      }
    }
  }

  private void buffer(StagedCommit staged) {
    try {
      reads.exclusive(
          t -> {
            t.putAll(staged.batch());
            return null;
          });
    } catch (RuntimeException e) {
      throw new StoreFailure(KvErrors.map("staging a commit", e));
    }
  }

  /** The premise of the next member: this one's, with what {@code staged} wrote put in place. */
  private void fold(StagedCommit staged) {
    LandedCommit landing = staged.landing();
    ViewState state = landing.carry(premise);
    premise =
        new SnapshotView(
            reads, landing.record(), landing.head(), state != null ? state : ViewState.EMPTY);
    head = staged.newHead();
  }

  /**
   * Commits the transaction: one atomic write of every member. Returns its receipt.
   *
   * @throws RuntimeException the store's exception, untranslated: a conflict (a lost race, nothing
   *     written), an unknown outcome, or a refusal before hand-over
   */
  WriteReceipt commit() {
    return reads.exclusive(KvTransaction::commit);
  }

  /** The batch landed: its premises read the store, and the catalog's head view is its own. */
  void landed(CatalogReads catalog) {
    reads.landed(catalog);
    catalog.installBatchHead(premise);
  }

  /** Ends the batch's transaction (without writing, unless {@link #commit} did). */
  void close() {
    reads.ended();
    txn.close();
  }

  List<CommitRequest> requests() {
    return requests;
  }

  int members() {
    return members;
  }

  /** Whether any member buffered a write, so that the batch has something to commit. */
  boolean writes() {
    return writes;
  }

  /** Whether a withdrawn request left writes in the transaction: the batch must start over. */
  boolean mustRestage() {
    return mustRestage;
  }

  HeadValue baseHead() {
    return baseHead;
  }

  SnapshotValue baseRecord() {
    return baseRecord;
  }

  /** The head view the batch began at, reading the store (for judging a lost race). */
  SnapshotView baseView() {
    return baseView;
  }

  /** The head the batch leaves if it lands. */
  Head finalHead() {
    return new Head(head.getSnapshotId(), head.getBatchSeq());
  }

  private static long nowMicros() {
    Instant now = Clock.systemUTC().instant();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
  }

  /** Buffering into the transaction failed: the store is no longer usable for this batch. */
  static final class StoreFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreFailure(RuntimeException cause) {
      super(cause.getMessage(), cause, false, false);
    }

    RuntimeException failure() {
      return (RuntimeException) getCause();
    }
  }
}
