package dev.moraine.core.commit;

import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.core.view.ViewLoader;
import java.util.function.Function;

/**
 * Where the premises of one batch's members read: through the batch's store transaction while the
 * batch stages, so that member i reads what members 1..i-1 buffered on top of the head the batch
 * began at (the transaction's snapshot merged with its own writes); through the catalog's store
 * reads once the batch has landed, since every record they show is then in the store; nowhere once
 * the batch ended without landing, since they show writes that never happened.
 *
 * <p>Concurrency: the transaction is used by one thread at a time, and a closure may hand its
 * premise to other threads. Every use of the transaction, the batch's own buffering and commit
 * included ({@link #exclusive}), holds this object's monitor, which also guards the switch from one
 * state to the next; the state only moves forward (staging, then landed or ended).
 */
final class BatchReads implements ViewLoader {
  /** The transaction, while the batch stages; null after. Guarded by {@code this}. */
  private KvTransaction txn;

  /** The catalog's reads, once the batch landed. Guarded by {@code this}. */
  private ViewLoader landed;

  BatchReads(KvTransaction txn) {
    this.txn = txn;
  }

  @Override
  public <T> T load(String what, Function<KvReadView, T> body) {
    ViewLoader after;
    synchronized (this) {
      if (txn != null) {
        KvTransaction t = txn;
        return KvErrors.translate(what, () -> body.apply(t));
      }
      after = landed;
    }
    if (after == null) {
      throw new ClosedException(
          what
              + ": this view is the premise of a commit attempt that ended without landing; read"
              + " a snapshot from the catalog instead",
          null);
    }
    return after.load(what, body);
  }

  /** Runs {@code use} on the transaction, which no load uses meanwhile. */
  synchronized <T> T exclusive(Function<KvTransaction, T> use) {
    if (txn == null) {
      throw new IllegalStateException("the batch's transaction is no longer in use");
    }
    return use.apply(txn);
  }

  /** The batch landed: its members' premises read the store from now on. */
  synchronized void landed(ViewLoader store) {
    txn = null;
    landed = store;
  }

  /** The batch ended without landing: its members' premises read nothing any more. */
  synchronized void ended() {
    txn = null;
  }
}
