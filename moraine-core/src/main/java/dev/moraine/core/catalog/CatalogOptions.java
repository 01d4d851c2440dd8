package dev.moraine.core.catalog;

import java.time.Duration;
import java.util.Optional;

/**
 * How a catalog is opened.
 *
 * @param dataPath the lake's data path, recorded in the global options when this open creates the
 *     catalog (ignored when the store already holds one: the recorded value stands)
 * @param encrypted whether data files are encrypted, recorded at creation as above; reserved
 *     afterwards
 * @param snapshotCacheSize how many snapshot views the catalog keeps for reuse (at least 1); a
 *     count, not a weight: each cached view keeps what it has loaded
 * @param flushSpacing how long a write-ahead-log flush of a writer catalog (one object-store PUT)
 *     waits, after the previous one started, for commits to share it. It goes sooner once as many
 *     commits wait as recent flushes carried, and for a lone writer, but never sooner than a tenth
 *     of the spacing after the previous start (RFC 0004 §4.7). Zero flushes whatever is pending as
 *     soon as no flush is in the air. Default 100 ms, as the Rust implementation's
 * @param publishCheckpoints whether a commit returns only once a durable checkpoint covering it is
 *     published in the store's manifest, so that any reader opened afterwards finds it. One
 *     publication covers a whole flush. Default on
 * @param checkpointLifetime how long the checkpoint a writer publishes when it falls idle (a second
 *     without a flush) or closes lives: it keeps the last commits covered once the short-lived
 *     checkpoint of each flush (ten seconds) has expired; the writer deletes it when it publishes
 *     the next one. Default one hour
 * @param maxBatchMembers the most commits of different callers one batch takes before it seals (a
 *     group handed in by one caller is never split); default 64
 * @param stallReport how long a commit waits in one go before the phase it waits in is logged (at
 *     warn, again after each further such wait); default 10 s
 * @param fileIndexValues how a writer catalog reads the index values of data files' rows, for the
 *     verbs that keep the equality indexes of tables whose rows are in files (RFC 0002 §10.2); none
 *     by default, which refuses those verbs on an indexed table
 * @param dataInliningRowLimit the data inlining row limit of a table whose lake options set none
 *     ({@code data_inlining_row_limit} at table, schema or global scope), as DuckLake's ATTACH
 *     option DATA_INLINING_ROW_LIMIT; not recorded in the lake. The inline verbs inline what they
 *     are given whatever the limit: it decides, as in DuckLake, whether creating or re-shaping a
 *     table registers an empty inlined-data table for its new schema version (a limit of 0 turns
 *     that off; RFC 0004 §8.2 item 5). Default 10, DuckLake's
 */
public record CatalogOptions(
    Optional<String> dataPath,
    boolean encrypted,
    int snapshotCacheSize,
    Duration flushSpacing,
    boolean publishCheckpoints,
    Duration checkpointLifetime,
    int maxBatchMembers,
    Duration stallReport,
    Optional<FileIndexValues> fileIndexValues,
    long dataInliningRowLimit) {
  /** DuckLake's default data inlining row limit. */
  public static final long DEFAULT_DATA_INLINING_ROW_LIMIT = 10;

  /** The default number of snapshot views kept. */
  public static final int DEFAULT_SNAPSHOT_CACHE_SIZE = 64;

  /** The default flush spacing. */
  public static final Duration DEFAULT_FLUSH_SPACING = Duration.ofMillis(100);

  /** The default lifetime of a published checkpoint. */
  public static final Duration DEFAULT_CHECKPOINT_LIFETIME = Duration.ofHours(1);

  /** The default most commits a batch takes. */
  public static final int DEFAULT_MAX_BATCH_MEMBERS = 64;

  /** The default wait before a commit's phase is logged. */
  public static final Duration DEFAULT_STALL_REPORT = Duration.ofSeconds(10);

  /**
   * Validates the options.
   *
   * @throws InvalidArgumentException if {@code dataPath} or {@code fileIndexValues} is null, the
   *     data path holds an empty string, the cache size or the batch size is below 1, a duration is
   *     null, the spacing is negative, the lifetime or the stall report is not positive, or the
   *     data inlining row limit is negative; nothing was opened
   */
  public CatalogOptions {
    if (dataPath == null) {
      throw new InvalidArgumentException("dataPath must not be null (use Optional.empty())");
    }
    if (dataPath.isPresent() && dataPath.get().isEmpty()) {
      throw new InvalidArgumentException("dataPath must not be empty");
    }
    if (snapshotCacheSize < 1) {
      throw new InvalidArgumentException(
          "snapshotCacheSize must be at least 1, got " + snapshotCacheSize);
    }
    if (flushSpacing == null || flushSpacing.isNegative()) {
      throw new InvalidArgumentException(
          "flushSpacing must be zero or positive, got " + flushSpacing);
    }
    if (checkpointLifetime == null
        || checkpointLifetime.isNegative()
        || checkpointLifetime.isZero()) {
      throw new InvalidArgumentException(
          "checkpointLifetime must be positive, got " + checkpointLifetime);
    }
    if (maxBatchMembers < 1) {
      throw new InvalidArgumentException(
          "maxBatchMembers must be at least 1, got " + maxBatchMembers);
    }
    if (stallReport == null || stallReport.isNegative() || stallReport.isZero()) {
      throw new InvalidArgumentException("stallReport must be positive, got " + stallReport);
    }
    if (fileIndexValues == null) {
      throw new InvalidArgumentException("fileIndexValues must not be null (use Optional.empty())");
    }
    if (dataInliningRowLimit < 0) {
      throw new InvalidArgumentException(
          "dataInliningRowLimit must be zero or positive, got " + dataInliningRowLimit);
    }
  }

  /** The given data path, encryption flag and cache size, and the defaults for the rest. */
  public CatalogOptions(Optional<String> dataPath, boolean encrypted, int snapshotCacheSize) {
    this(
        dataPath,
        encrypted,
        snapshotCacheSize,
        DEFAULT_FLUSH_SPACING,
        true,
        DEFAULT_CHECKPOINT_LIFETIME,
        DEFAULT_MAX_BATCH_MEMBERS,
        DEFAULT_STALL_REPORT,
        Optional.empty(),
        DEFAULT_DATA_INLINING_ROW_LIMIT);
  }

  /** No data path, not encrypted, and every default above. */
  public static CatalogOptions defaults() {
    return new CatalogOptions(Optional.empty(), false, DEFAULT_SNAPSHOT_CACHE_SIZE);
  }

  /** These options with {@code dataPath} recorded at creation. */
  public CatalogOptions withDataPath(String path) {
    Copy c = new Copy(this);
    c.dataPath = Optional.ofNullable(path);
    return c.build();
  }

  /** These options with the encryption flag recorded at creation. */
  public CatalogOptions withEncrypted(boolean on) {
    Copy c = new Copy(this);
    c.encrypted = on;
    return c.build();
  }

  /** These options with another snapshot cache size. */
  public CatalogOptions withSnapshotCacheSize(int size) {
    Copy c = new Copy(this);
    c.snapshotCacheSize = size;
    return c.build();
  }

  /** These options with another flush spacing ({@link Duration#ZERO}: flush every batch). */
  public CatalogOptions withFlushSpacing(Duration spacing) {
    Copy c = new Copy(this);
    c.flushSpacing = spacing;
    return c.build();
  }

  /** These options with checkpoint publication on or off. */
  public CatalogOptions withCheckpointPublication(boolean on) {
    Copy c = new Copy(this);
    c.publishCheckpoints = on;
    return c.build();
  }

  /** These options with another lifetime for published checkpoints. */
  public CatalogOptions withCheckpointLifetime(Duration lifetime) {
    Copy c = new Copy(this);
    c.checkpointLifetime = lifetime;
    return c.build();
  }

  /** These options with another cap on the commits of one batch. */
  public CatalogOptions withMaxBatchMembers(int members) {
    Copy c = new Copy(this);
    c.maxBatchMembers = members;
    return c.build();
  }

  /** These options with another wait before a stalled commit is reported. */
  public CatalogOptions withStallReport(Duration after) {
    Copy c = new Copy(this);
    c.stallReport = after;
    return c.build();
  }

  /**
   * These options with {@code values} reading the index values of data files' rows, for the verbs
   * that keep the equality indexes of tables whose rows are in files.
   */
  public CatalogOptions withFileIndexValues(FileIndexValues values) {
    Copy c = new Copy(this);
    c.fileIndexValues = Optional.ofNullable(values);
    return c.build();
  }

  /**
   * These options with another data inlining row limit for tables whose lake options set none (0:
   * no inlined-data table is registered when a table is created or re-shaped).
   */
  public CatalogOptions withDataInliningRowLimit(long limit) {
    Copy c = new Copy(this);
    c.dataInliningRowLimit = limit;
    return c.build();
  }

  /** These options' fields, one of which a with-method changes before building the copy. */
  private static final class Copy {
    private Optional<String> dataPath;
    private boolean encrypted;
    private int snapshotCacheSize;
    private Duration flushSpacing;
    private boolean publishCheckpoints;
    private Duration checkpointLifetime;
    private int maxBatchMembers;
    private Duration stallReport;
    private Optional<FileIndexValues> fileIndexValues;
    private long dataInliningRowLimit;

    private Copy(CatalogOptions o) {
      dataPath = o.dataPath;
      encrypted = o.encrypted;
      snapshotCacheSize = o.snapshotCacheSize;
      flushSpacing = o.flushSpacing;
      publishCheckpoints = o.publishCheckpoints;
      checkpointLifetime = o.checkpointLifetime;
      maxBatchMembers = o.maxBatchMembers;
      stallReport = o.stallReport;
      fileIndexValues = o.fileIndexValues;
      dataInliningRowLimit = o.dataInliningRowLimit;
    }

    private CatalogOptions build() {
      return new CatalogOptions(
          dataPath,
          encrypted,
          snapshotCacheSize,
          flushSpacing,
          publishCheckpoints,
          checkpointLifetime,
          maxBatchMembers,
          stallReport,
          fileIndexValues,
          dataInliningRowLimit);
    }
  }
}
