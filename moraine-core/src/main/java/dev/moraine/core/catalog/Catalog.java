package dev.moraine.core.catalog;

import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;

/**
 * The read-write catalog over a writer store. It reads as a {@link ReadOnlyCatalog} does; commits
 * are added to this type (and to this type only), so that a read-only catalog cannot commit.
 *
 * <p>Ownership: a catalog borrows the store handle it is opened on. Closing the catalog does not
 * close the handle; close the handle after the catalog. One writer store may carry one catalog.
 */
public interface Catalog extends ReadOnlyCatalog {
  /** Whether this open created the catalog (bootstrapped an empty store). */
  boolean createdByThisOpen();

  /**
   * Runs {@code body} and lands what it did as one atomic commit; the body may run more than once
   * and must have no side effects outside the {@link Transaction} it is given. It runs again when a
   * concurrent commit took the head first without conflicting with it (up to 10 attempts, waiting 2
   * ms doubling to 50 ms, with jitter, between them), each time against the new head, so that names
   * and premises are re-validated against what actually won. It also runs again when it threw a
   * typed refusal ({@link InvalidArgumentException}, {@link AlreadyExistsException}, {@link
   * NotFoundException}) while a concurrent commit moved the head, since the refusal may rest on
   * that newer state; with the head unmoved the refusal is thrown as it is.
   *
   * <p>When the call returns, the commit is applied and durable. A body that stages nothing, or
   * only changes that cancel out, writes nothing and returns the head's snapshot id (DuckLake mints
   * no snapshot for an empty transaction). A body that only sets or unsets options mints no
   * snapshot either: it advances the head's batch sequence and returns the head's snapshot id.
   *
   * @return the id of the snapshot the commit minted, or of the head it left standing
   * @throws RuntimeException whatever the body throws, unchanged (a verb's typed error included,
   *     from the last run); nothing was written
   * @throws InvalidArgumentException if {@code body} is null; nothing was written
   * @throws CommitConflictException if a concurrent commit made a change this commit conflicts with
   *     by DuckLake's rules; nothing was written
   * @throws RetryBudgetExhaustedException if every attempt was overtaken by concurrent commits;
   *     nothing was written
   * @throws CommitOutcomeUnknownException if the store failed after the commit reached it: the
   *     commit is either wholly there or wholly absent; reconcile before repeating it
   * @throws StoreUnavailableException if the store failed before the commit reached it; nothing was
   *     written
   * @throws FencedException, ClosedException if the handle is dead; nothing was written
   * @throws CorruptionException if the premise's records do not decode; nothing was written
   */
  long commit(CommitBody body);

  /**
   * {@link #commit(CommitBody)}, handing back a value the body computes, typically the ids of what
   * it created: {@code catalog.commitReturning(tx -> tx.createTable(schema, "t",
   * columns)).value()}.
   *
   * <p>The body may run more than once (see {@link #commit(CommitBody)}); the value returned is the
   * one of its last run, the run whose changes the commit holds, so an id in it names the entity as
   * committed. Every outcome and exception is that of {@link #commit(CommitBody)}.
   *
   * @throws InvalidArgumentException if {@code body} is null; nothing was written
   */
  default <T> Committed<T> commitReturning(CommitFunction<T> body) {
    if (body == null) {
      throw new InvalidArgumentException("the commit body is null");
    }
    // The body runs on this thread, once per attempt, and each run overwrites the holder: after
    // commit returns, the holder has the value of the run that was committed (no run follows it).
    Object[] lastRun = new Object[1];
    long snapshotId = commit(tx -> lastRun[0] = body.apply(tx));
    @SuppressWarnings("unchecked")
    T value = (T) lastRun[0];
    return new Committed<>(snapshotId, value);
  }

  /**
   * Opens the catalog in a writer store, creating it first when the store is empty.
   *
   * <p>On an empty store, the bootstrap of RFC 0002 §11 is written as one transaction that
   * conflicts on {@code sys/head}: of several opens racing on one store, one commits it and the
   * others find its catalog and open that. On an initialised store nothing is written.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was read or written
   * @throws UnsupportedFormatException if the store's format is not 9 or it carries a migration
   *     marker; nothing was written
   * @throws CorruptionException if the store's records do not decode; nothing was written
   * @throws StoreUnavailableException if the store failed: the bootstrap, if one was attempted, is
   *     either wholly written or not at all, and opening again finds out which
   * @throws FencedException, ClosedException if the store handle is dead; nothing was written
   */
  static Catalog open(KvStore store, CatalogOptions options) {
    return CatalogOpener.openWriter(store, options);
  }

  /**
   * Opens the catalog of a store read-only through a reader handle (latest-following or pinned at a
   * checkpoint). Never writes and never bootstraps.
   *
   * @throws InvalidArgumentException if an argument is null
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if the store holds no catalog
   * @throws UnsupportedFormatException if the format is not 9 or a migration marker is present
   * @throws CorruptionException, StoreUnavailableException, ClosedException as for every read
   */
  static ReadOnlyCatalog openReadOnly(KvReader reader, CatalogOptions options) {
    return CatalogOpener.openReadOnly(reader, options);
  }

  /**
   * Opens the catalog of a writer store read-only: as {@link #openReadOnly(KvReader,
   * CatalogOptions)}, reading through the store's own snapshots. Never writes.
   */
  static ReadOnlyCatalog openReadOnly(KvStore store, CatalogOptions options) {
    return CatalogOpener.openReadOnly(store, options);
  }
}
