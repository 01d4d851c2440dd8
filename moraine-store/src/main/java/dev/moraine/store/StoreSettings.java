package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.time.Duration;

/**
 * The SlateDB settings a Moraine store exposes. Start from {@link #defaults()} and change what you
 * need with the {@code with...} methods.
 *
 * <p>Intervals are at least 1 ms: SlateDB counts them in whole milliseconds.
 *
 * @param flushInterval how often the writer flushes its write-ahead log by itself; null turns the
 *     flush timer off (the WAL then flushes only on {@code flushWal}, when its buffer fills, and on
 *     close). Default off: a writer catalog paces the flushes itself (its flush spacing) and
 *     refuses a store whose timer is on. A store written without a catalog, whose writers wait for
 *     durability without flushing, wants a timer: SlateDB's own default is 100 ms.
 * @param manifestPollInterval how often the writer re-reads the manifest, which is also how an idle
 *     fenced writer notices it is fenced. Default 1 s, SlateDB's own.
 * @param readerPollInterval how often a latest-following reader looks for new durable writes.
 *     Default 1 s; SlateDB's 10 s is long for a catalog reader and a poll costs one or two
 *     object-store requests.
 * @param objectStoreMaxRetries how often a failed object-store request is retried before the call
 *     fails ({@code KvUnavailableException} for a read, {@code KvOutcomeUnknownException} for a
 *     write, flush or checkpoint); null retries forever (a dead endpoint then holds calls until the
 *     operation timeout). Default 10, about seven seconds of backoff.
 * @param compactor whether the writer runs SlateDB's compactor in-process. Default on: without it
 *     level-0 SSTs pile up and reads slow down.
 * @param garbageCollector whether the writer deletes obsolete objects. Default on: without it the
 *     store only grows.
 * @param tagSegmentExtractor whether the store uses Moraine's one-byte segment extractor {@code
 *     moraine-tag-v1}. SlateDB records the choice when a store is created and refuses to open it
 *     otherwise afterwards. Default on, as the Rust implementation of Moraine does; turn it off
 *     only for stores that are not Moraine catalogs.
 * @param operationTimeout the bound of every blocking call on a writer that has no timeout argument
 *     of its own: {@code write}, a transaction's {@code commit}, {@code flushWal}, {@code
 *     awaitDurable(receipt)}, {@code createCheckpoint} and {@code close}. A call that reaches it
 *     after handing its effect to the store fails with {@code KvOutcomeUnknownException} (reason
 *     {@code TIMEOUT}). Default 60 s: well above what a healthy store needs even when a request
 *     runs through all of {@code objectStoreMaxRetries} (about seven seconds of backoff by default)
 *     on each of the few requests a checkpoint or a close makes, so only a store that is stuck
 *     reaches it, and short enough that a stuck store is reported within a minute. It bounds reads
 *     too: {@code get}, {@code getAll}, opening a scan and each step of it, {@code begin}, {@code
 *     snapshot}, and opening and closing a reader (on writers, snapshots, transactions and
 *     readers). A read that reaches it, or whose thread is interrupted, fails with {@code
 *     KvUnavailableException}; it wrote nothing, and an interrupt flag stays set.
 * @param compactorPollInterval how often the compactor looks for work; null for SlateDB's 5 s.
 *     Shorter makes compaction follow new level-0 tables sooner (tests use it to make compaction
 *     happen within a short run).
 * @param l0SstBytes the size at which the memtable is frozen and written as a level-0 SST; null for
 *     SlateDB's 64 MiB. Smaller gives more, smaller level-0 tables, and so more compaction.
 */
public record StoreSettings(
    Duration flushInterval,
    Duration manifestPollInterval,
    Duration readerPollInterval,
    Integer objectStoreMaxRetries,
    boolean compactor,
    boolean garbageCollector,
    boolean tagSegmentExtractor,
    Duration operationTimeout,
    Duration compactorPollInterval,
    Long l0SstBytes) {

  private static final Duration ONE_MILLISECOND = Duration.ofMillis(1);

  private static final StoreSettings DEFAULTS =
      new StoreSettings(
          null,
          Duration.ofSeconds(1),
          Duration.ofSeconds(1),
          10,
          true,
          true,
          true,
          Duration.ofSeconds(60),
          null,
          null);

  /** Checks the values. */
  public StoreSettings {
    // SlateDB takes whole milliseconds: a shorter interval would become a zero-period ticker that
    // spins a core. A timer that is off is written as null (withFlushTimerOff), never as zero.
    if (flushInterval != null) {
      requireAtLeastOneMillisecond(flushInterval, "flush interval");
    }
    requireAtLeastOneMillisecond(manifestPollInterval, "manifest poll interval");
    requireAtLeastOneMillisecond(readerPollInterval, "reader poll interval");
    if (objectStoreMaxRetries != null && objectStoreMaxRetries < 0) {
      throw new KvInvalidArgumentException("max retries must not be negative");
    }
    // Every blocking call needs a bound: there is no "no timeout".
    requireAtLeastOneMillisecond(operationTimeout, "operation timeout");
    if (compactorPollInterval != null) {
      requireAtLeastOneMillisecond(compactorPollInterval, "compactor poll interval");
    }
    if (l0SstBytes != null && l0SstBytes < 1) {
      throw new KvInvalidArgumentException("level-0 SST size must be positive");
    }
  }

  /** The defaults described above. */
  public static StoreSettings defaults() {
    return DEFAULTS;
  }

  /** With the flush timer at {@code interval}. */
  public StoreSettings withFlushInterval(Duration interval) {
    if (interval == null) {
      throw new KvInvalidArgumentException("use withFlushTimerOff() to turn the timer off");
    }
    return new StoreSettings(
        interval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the flush timer off: the WAL flushes only when asked, when full, or on close. */
  public StoreSettings withFlushTimerOff() {
    return new StoreSettings(
        null,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the writer's manifest poll interval. */
  public StoreSettings withManifestPollInterval(Duration interval) {
    return new StoreSettings(
        flushInterval,
        interval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the latest-following reader's poll interval. */
  public StoreSettings withReaderPollInterval(Duration interval) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        interval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With at most {@code retries} retries per object-store request; null for unbounded. */
  public StoreSettings withObjectStoreMaxRetries(Integer retries) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        retries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the compactor on or off. */
  public StoreSettings withCompactor(boolean on) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        on,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the garbage collector on or off. */
  public StoreSettings withGarbageCollector(boolean on) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        on,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the {@code moraine-tag-v1} segment extractor on or off. */
  public StoreSettings withTagSegmentExtractor(boolean on) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        on,
        operationTimeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the bound of blocking writer calls (at least 1 ms). */
  public StoreSettings withOperationTimeout(Duration timeout) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        timeout,
        compactorPollInterval,
        l0SstBytes);
  }

  /** With the compactor polling every {@code interval} (null for SlateDB's default). */
  public StoreSettings withCompactorPollInterval(Duration interval) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        interval,
        l0SstBytes);
  }

  /** With level-0 SSTs of about {@code bytes} (null for SlateDB's default). */
  public StoreSettings withL0SstBytes(Long bytes) {
    return new StoreSettings(
        flushInterval,
        manifestPollInterval,
        readerPollInterval,
        objectStoreMaxRetries,
        compactor,
        garbageCollector,
        tagSegmentExtractor,
        operationTimeout,
        compactorPollInterval,
        bytes);
  }

  long l0SstBytesOrNone() {
    return l0SstBytes == null ? -1 : l0SstBytes;
  }

  /** Milliseconds for native code; -1 for none. */
  static long millisOrNone(Duration duration) {
    if (duration == null) {
      return -1;
    }
    try {
      return duration.toMillis();
    } catch (ArithmeticException tooLong) {
      return -1;
    }
  }

  long maxRetriesOrNone() {
    return objectStoreMaxRetries == null ? -1 : objectStoreMaxRetries;
  }

  private static void requireAtLeastOneMillisecond(Duration value, String what) {
    if (value == null || value.compareTo(ONE_MILLISECOND) < 0) {
      throw new KvInvalidArgumentException(what + " must be at least 1 ms, got " + value);
    }
  }
}
