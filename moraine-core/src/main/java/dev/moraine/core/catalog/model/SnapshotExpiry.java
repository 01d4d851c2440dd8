package dev.moraine.core.catalog.model;

import dev.moraine.core.catalog.InvalidArgumentException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * Which snapshots {@code Catalog.expireSnapshots} expires, as {@code ducklake_expire_snapshots}
 * chooses them: those older than a time, all but the newest few, or a list of ids. The head is
 * never expired. Immutable; the {@code with} methods return a changed copy.
 *
 * <p>{@link #dryRun()} names the snapshots without writing. {@link #withBatchKeys(int)} bounds how
 * many keys one store write of the expiry touches (default {@value #DEFAULT_BATCH_KEYS}): a large
 * expiry lands as several head-preserving batches, each leaving a catalog that reads correctly.
 */
public final class SnapshotExpiry {
  /** The default bound on the keys one batch of an expiry writes. */
  public static final int DEFAULT_BATCH_KEYS = 2_000;

  private final Optional<Instant> olderThan;
  private final OptionalInt retainLast;
  private final Optional<List<Long>> ids;
  private final boolean dryRun;
  private final int batchKeys;

  private SnapshotExpiry(
      Optional<Instant> olderThan,
      OptionalInt retainLast,
      Optional<List<Long>> ids,
      boolean dryRun,
      int batchKeys) {
    this.olderThan = olderThan;
    this.retainLast = retainLast;
    this.ids = ids;
    this.dryRun = dryRun;
    this.batchKeys = batchKeys;
  }

  /**
   * Every snapshot whose time is before {@code instant}, except the head ({@code older_than}).
   *
   * @throws InvalidArgumentException if {@code instant} is null
   */
  public static SnapshotExpiry olderThan(Instant instant) {
    if (instant == null) {
      throw new InvalidArgumentException("the expiry time must not be null");
    }
    return new SnapshotExpiry(
        Optional.of(instant), OptionalInt.empty(), Optional.empty(), false, DEFAULT_BATCH_KEYS);
  }

  /**
   * Every snapshot but the newest {@code count} (the head always among them).
   *
   * @throws InvalidArgumentException if {@code count} is below 1
   */
  public static SnapshotExpiry retainLast(int count) {
    if (count < 1) {
      throw new InvalidArgumentException(
          "at least the head must be retained; retainLast takes 1 or more, not " + count);
    }
    return new SnapshotExpiry(
        Optional.empty(), OptionalInt.of(count), Optional.empty(), false, DEFAULT_BATCH_KEYS);
  }

  /**
   * The snapshots {@code snapshotIds} names ({@code versions}). Ids the catalog no longer holds
   * (already expired) are passed over, so a repeated call finishes an interrupted one; naming the
   * head is refused when the expiry runs.
   *
   * @throws InvalidArgumentException if the collection is null, empty or holds a null
   */
  public static SnapshotExpiry ids(Collection<Long> snapshotIds) {
    if (snapshotIds == null || snapshotIds.isEmpty()) {
      throw new InvalidArgumentException("name at least one snapshot to expire");
    }
    TreeSet<Long> sorted = new TreeSet<>(Long::compareUnsigned);
    for (Long id : snapshotIds) {
      if (id == null) {
        throw new InvalidArgumentException("the snapshot ids must not hold a null");
      }
      sorted.add(id);
    }
    return new SnapshotExpiry(
        Optional.empty(),
        OptionalInt.empty(),
        Optional.of(List.copyOf(sorted)),
        false,
        DEFAULT_BATCH_KEYS);
  }

  /** This expiry, naming what it would expire and writing nothing. */
  public SnapshotExpiry dryRun() {
    return new SnapshotExpiry(olderThan, retainLast, ids, true, batchKeys);
  }

  /**
   * This expiry with at most {@code keys} keys written per batch.
   *
   * @throws InvalidArgumentException if {@code keys} is below 16
   */
  public SnapshotExpiry withBatchKeys(int keys) {
    if (keys < 16) {
      throw new InvalidArgumentException("a batch must be allowed at least 16 keys, not " + keys);
    }
    return new SnapshotExpiry(olderThan, retainLast, ids, dryRun, keys);
  }

  /** The time before which snapshots expire, when that is the rule. */
  public Optional<Instant> olderThanTime() {
    return olderThan;
  }

  /** How many of the newest snapshots are kept, when that is the rule. */
  public OptionalInt retainedCount() {
    return retainLast;
  }

  /** The snapshot ids named, ascending, when that is the rule. */
  public Optional<List<Long>> snapshotIds() {
    return ids;
  }

  public boolean isDryRun() {
    return dryRun;
  }

  public int batchKeys() {
    return batchKeys;
  }

  @Override
  public String toString() {
    String rule =
        olderThan
            .map(t -> "older than " + t)
            .orElseGet(
                () ->
                    retainLast.isPresent()
                        ? "all but the newest " + retainLast.getAsInt()
                        : "snapshots " + ids.orElseThrow());
    return "SnapshotExpiry[" + rule + (dryRun ? ", dry run" : "") + "]";
  }
}
