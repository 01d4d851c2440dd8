package dev.moraine.core.catalog.model;

import dev.moraine.core.catalog.FileMerger;
import dev.moraine.core.catalog.FileRewriter;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.LakeFiles;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a maintenance pass does (RFC 0005 §5), in this order, each step only when configured: expire
 * snapshots, merge small files, rewrite files with many deleted rows, delete scheduled files. No
 * step has a default: each one changes the lake, so a host names what it wants. Immutable; each
 * method returns a changed copy.
 *
 * <pre>{@code
 * catalog.startMaintenance(MaintenancePolicy.every(Duration.ofMinutes(10))
 *     .expiringSnapshotsOlderThan(Duration.ofDays(7))
 *     .mergingSmallFiles(merger, 100_000)
 *     .rewritingDeletedRows(rewriter, 0.95)
 *     .cleaningUpFiles(files, Duration.ofHours(1)));
 * }</pre>
 */
public final class MaintenancePolicy {
  private final Duration interval;
  private final Optional<Duration> retention;
  private final OptionalInt keepNewest;
  private final Optional<FileMerger> merger;
  private final long smallFileRecords;
  private final int maxMergeInputs;
  private final Optional<LakeFiles> files;
  private final Duration cleanupGrace;
  private final Optional<FileRewriter> rewriter;
  private final double deleteThreshold;

  private MaintenancePolicy(
      Duration interval,
      Optional<Duration> retention,
      OptionalInt keepNewest,
      Optional<FileMerger> merger,
      long smallFileRecords,
      int maxMergeInputs,
      Optional<LakeFiles> files,
      Duration cleanupGrace,
      Optional<FileRewriter> rewriter,
      double deleteThreshold) {
    this.interval = interval;
    this.retention = retention;
    this.keepNewest = keepNewest;
    this.merger = merger;
    this.smallFileRecords = smallFileRecords;
    this.maxMergeInputs = maxMergeInputs;
    this.files = files;
    this.cleanupGrace = cleanupGrace;
    this.rewriter = rewriter;
    this.deleteThreshold = deleteThreshold;
  }

  /**
   * A policy whose scheduled passes start {@code interval} after the previous one ended, and that
   * does nothing until steps are added.
   *
   * @throws InvalidArgumentException if {@code interval} is null or not positive
   */
  public static MaintenancePolicy every(Duration interval) {
    requirePositive(interval, "the maintenance interval");
    return new MaintenancePolicy(
        interval,
        Optional.empty(),
        OptionalInt.empty(),
        Optional.empty(),
        0,
        0,
        Optional.empty(),
        Duration.ZERO,
        Optional.empty(),
        0);
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
    return new MaintenancePolicy(
        interval,
        Optional.of(retention),
        OptionalInt.empty(),
        merger,
        smallFileRecords,
        maxMergeInputs,
        files,
        cleanupGrace,
        rewriter,
        deleteThreshold);
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
    return new MaintenancePolicy(
        interval,
        Optional.empty(),
        OptionalInt.of(count),
        merger,
        smallFileRecords,
        maxMergeInputs,
        files,
        cleanupGrace,
        rewriter,
        deleteThreshold);
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
    return new MaintenancePolicy(
        interval,
        retention,
        keepNewest,
        Optional.of(merger),
        smallFileRecords,
        1_000,
        files,
        cleanupGrace,
        rewriter,
        deleteThreshold);
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
    return new MaintenancePolicy(
        interval,
        retention,
        keepNewest,
        merger,
        smallFileRecords,
        maxMergeInputs,
        files,
        cleanupGrace,
        Optional.of(rewriter),
        deleteThreshold);
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
    return new MaintenancePolicy(
        interval,
        retention,
        keepNewest,
        merger,
        smallFileRecords,
        maxMergeInputs,
        Optional.of(files),
        grace,
        rewriter,
        deleteThreshold);
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
