package dev.moraine.core.catalog.model;

import dev.moraine.core.catalog.FileMerger;
import dev.moraine.core.catalog.FileRewriter;
import dev.moraine.core.catalog.InlineFlusher;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.LakeFiles;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a maintenance pass does (RFC 0005 §5), in this order, each step only when configured: flush
 * inlined data into files, expire snapshots, merge small files, rewrite files with many deleted
 * rows, delete scheduled files. No step has a default: each one changes the lake, so a host names
 * what it wants. Immutable; each method returns a changed copy.
 *
 * <pre>{@code
 * catalog.startMaintenance(MaintenancePolicy.every(Duration.ofMinutes(10))
 *     .flushingInlinedData(flusher)
 *     .expiringSnapshotsOlderThan(Duration.ofDays(7))
 *     .mergingSmallFiles(merger, 100_000)
 *     .rewritingDeletedRows(rewriter, 0.95)
 *     .cleaningUpFiles(files, Duration.ofHours(1)));
 * }</pre>
 */
public final class MaintenancePolicy {
  // Not final so that each with-method can set its own fields on a fresh copy; no instance is
  // changed after the method that made it returns, so every published policy is immutable (and
  // reaches the maintenance thread through the executor's hand-off, which orders these writes
  // before its reads).
  private Duration interval;
  private Optional<Duration> retention = Optional.empty();
  private OptionalInt keepNewest = OptionalInt.empty();
  private Optional<FileMerger> merger = Optional.empty();
  private long smallFileRecords;
  private int maxMergeInputs;
  private Optional<LakeFiles> files = Optional.empty();
  private Duration cleanupGrace = Duration.ZERO;
  private Optional<FileRewriter> rewriter = Optional.empty();
  private double deleteThreshold;
  private Optional<InlineFlusher> flusher = Optional.empty();

  private MaintenancePolicy(Duration interval) {
    this.interval = interval;
  }

  /** A copy of this policy, for a with-method to change before returning it. */
  private MaintenancePolicy copy() {
    MaintenancePolicy p = new MaintenancePolicy(interval);
    p.retention = retention;
    p.keepNewest = keepNewest;
    p.merger = merger;
    p.smallFileRecords = smallFileRecords;
    p.maxMergeInputs = maxMergeInputs;
    p.files = files;
    p.cleanupGrace = cleanupGrace;
    p.rewriter = rewriter;
    p.deleteThreshold = deleteThreshold;
    p.flusher = flusher;
    return p;
  }

  /**
   * A policy whose scheduled passes start {@code interval} after the previous one ended, and that
   * does nothing until steps are added.
   *
   * @throws InvalidArgumentException if {@code interval} is null or not positive
   */
  public static MaintenancePolicy every(Duration interval) {
    requirePositive(interval, "the maintenance interval");
    return new MaintenancePolicy(interval);
  }

  /**
   * Flushes each table's inlined data into files at each pass ({@code
   * ducklake_flush_inlined_data}): for every live table with inlined rows or inline deletions,
   * {@code flusher} writes the files and {@code flushInlined} registers them, one commit per table.
   *
   * @throws InvalidArgumentException if {@code flusher} is null
   */
  public MaintenancePolicy flushingInlinedData(InlineFlusher flusher) {
    if (flusher == null) {
      throw new InvalidArgumentException("the inline flusher must not be null");
    }
    MaintenancePolicy p = copy();
    p.flusher = Optional.of(flusher);
    return p;
  }

  /**
   * Expires the snapshots older than {@code retention} at each pass ({@code
   * ducklake_expire_snapshots} with {@code older_than}).
   *
   * @throws InvalidArgumentException if {@code retention} is null or negative
   */
  public MaintenancePolicy expiringSnapshotsOlderThan(Duration retention) {
    if (retention == null || retention.isNegative()) {
      throw new InvalidArgumentException("the retention must be zero or positive");
    }
    MaintenancePolicy p = copy();
    p.retention = Optional.of(retention);
    p.keepNewest = OptionalInt.empty();
    return p;
  }

  /**
   * Expires all but the newest {@code count} snapshots at each pass.
   *
   * @throws InvalidArgumentException if {@code count} is below 1
   */
  public MaintenancePolicy keepingNewestSnapshots(int count) {
    if (count < 1) {
      throw new InvalidArgumentException("at least the head is kept: count must be 1 or more");
    }
    MaintenancePolicy p = copy();
    p.retention = Optional.empty();
    p.keepNewest = OptionalInt.of(count);
    return p;
  }

  /**
   * Merges runs of adjacent small data files at each pass ({@code ducklake_merge_adjacent_files}):
   * in each table, live files with fewer than {@code smallFileRecords} rows, consecutive row ids,
   * one partition and no live delete file, at most 1000 to a run, are written into one file by
   * {@code merger} and registered with {@code mergeDataFiles}.
   *
   * @throws InvalidArgumentException if {@code merger} is null or {@code smallFileRecords} is not
   *     positive
   */
  public MaintenancePolicy mergingSmallFiles(FileMerger merger, long smallFileRecords) {
    if (merger == null || smallFileRecords < 1) {
      throw new InvalidArgumentException("a merger and a positive small-file row count are needed");
    }
    MaintenancePolicy p = copy();
    p.merger = Optional.of(merger);
    p.smallFileRecords = smallFileRecords;
    p.maxMergeInputs = 1_000;
    return p;
  }

  /**
   * Rewrites data files without their deleted rows at each pass ({@code
   * ducklake_rewrite_data_files} with {@code delete_threshold}): in each table, live files at least
   * {@code deleteThreshold} of whose rows are deleted (by a delete file or inline), grouped by
   * partition and schema version, at most 1000 to a group, are written into one file by {@code
   * rewriter} and registered with {@code rewriteDataFiles}. Stock DuckLake's default threshold is
   * 0.95.
   *
   * @throws InvalidArgumentException if {@code rewriter} is null or {@code deleteThreshold} is not
   *     between 0 and 1
   */
  public MaintenancePolicy rewritingDeletedRows(FileRewriter rewriter, double deleteThreshold) {
    if (rewriter == null || !(deleteThreshold >= 0 && deleteThreshold <= 1)) {
      throw new InvalidArgumentException("a rewriter and a delete threshold in [0, 1] are needed");
    }
    MaintenancePolicy p = copy();
    p.rewriter = Optional.of(rewriter);
    p.deleteThreshold = deleteThreshold;
    return p;
  }

  /**
   * Deletes, through {@code files}, the files scheduled for deletion more than {@code grace} before
   * each pass ({@code ducklake_cleanup_old_files} with {@code older_than}).
   *
   * @throws InvalidArgumentException if {@code files} is null or {@code grace} null or negative
   */
  public MaintenancePolicy cleaningUpFiles(LakeFiles files, Duration grace) {
    if (files == null || grace == null || grace.isNegative()) {
      throw new InvalidArgumentException("the lake's files and a grace of zero or more are needed");
    }
    MaintenancePolicy p = copy();
    p.files = Optional.of(files);
    p.cleanupGrace = grace;
    return p;
  }

  public Duration interval() {
    return interval;
  }

  /** How old an expired snapshot is, when expiry runs by age. */
  public Optional<Duration> retention() {
    return retention;
  }

  /** How many of the newest snapshots are kept, when expiry runs by count. */
  public OptionalInt keptSnapshots() {
    return keepNewest;
  }

  public Optional<FileMerger> merger() {
    return merger;
  }

  public long smallFileRecords() {
    return smallFileRecords;
  }

  public int maxMergeInputs() {
    return maxMergeInputs;
  }

  public Optional<LakeFiles> files() {
    return files;
  }

  public Duration cleanupGrace() {
    return cleanupGrace;
  }

  public Optional<FileRewriter> rewriter() {
    return rewriter;
  }

  public Optional<InlineFlusher> flusher() {
    return flusher;
  }

  /** The share of a file's rows that must be deleted for the rewrite step to take it. */
  public double deleteThreshold() {
    return deleteThreshold;
  }

  private static void requirePositive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new InvalidArgumentException(what + " must be positive");
    }
  }
}
