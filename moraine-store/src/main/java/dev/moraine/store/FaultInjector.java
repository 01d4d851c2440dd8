package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.time.Duration;

/**
 * Injects faults into the object store of a {@link ObjectStoreSpec.Faulty} spec, for tests: let N
 * PUTs or GETs through and fail the next M, fail a PUT after the object store applied it, delay
 * them, hold PUTs until released, and count the PUTs and GETs that reached the object store,
 * optionally only those whose path contains a fragment.
 *
 * <p>Paths are matched as if they began with {@code /}, so the fragments {@link #WAL}, {@link
 * #MANIFEST} and {@link #COMPACTED} select SlateDB's write-ahead log, manifest and compacted SST
 * objects whatever the store path.
 *
 * <p>SlateDB retries failed object-store operations up to the configured {@link
 * StoreSettings#objectStoreMaxRetries()} times, and every retry reaches this injector: to make one
 * SlateDB operation fail, fail more attempts than that. Counts include only attempts the underlying
 * store completed successfully. Listing, deleting, copying and multipart uploads pass through
 * uncounted.
 *
 * <p>One injector may serve several stores; it stays in effect for as long as they are open.
 * Thread-safe. {@link #close()} releases held PUTs and frees the native object.
 */
public final class FaultInjector implements AutoCloseable {
  /** Fragment selecting write-ahead-log objects. */
  public static final String WAL = "/wal/";

  /** Fragment selecting manifest objects. */
  public static final String MANIFEST = "/manifest/";

  /** Fragment selecting compacted SSTs. */
  public static final String COMPACTED = "/compacted/";

  private static final int PUTS = 0;
  private static final int GETS = 1;
  private static final int INJECTED_PUT_FAILURES = 2;
  private static final int INJECTED_GET_FAILURES = 3;

  private final NativeHandle handle;

  /** Creates an injector that injects nothing until told to. */
  public FaultInjector() {
    this.handle = new NativeHandle("fault injector", Native.faultNew(), Native::faultFree, null);
    handle.owner(this);
  }

  /** Makes the next {@code times} PUTs fail (replacing any earlier PUT rule). */
  public void failNextPuts(long times) {
    failPuts(0, times, null, false);
  }

  /** Makes the next {@code times} PUTs whose path contains {@code pathFragment} fail. */
  public void failNextPuts(long times, String pathFragment) {
    failPuts(0, times, pathFragment, false);
  }

  /**
   * Lets {@code skip} PUTs whose path contains {@code pathFragment} (null for any) through, then
   * makes the next {@code times} of them fail. Replaces any earlier PUT rule.
   *
   * @param afterApplying false: every failing PUT fails before it reaches the object store; true:
   *     the first failing PUT is applied by the object store and then reported as failed (a lost
   *     response), and the rest fail before reaching it, so retries of the lost PUT fail too. With
   *     more failures than the store's retries, the writer cannot know whether its write landed.
   */
  public void failPuts(long skip, long times, String pathFragment, boolean afterApplying) {
    requireCount(skip);
    requireCount(times);
    long address = handle.enter();
    try {
      Native.faultFailPuts(address, skip, times, pathFragment, afterApplying);
    } finally {
      handle.exit();
    }
  }

  /** Makes the next {@code times} GETs fail (replacing any earlier GET rule). */
  public void failNextGets(long times) {
    failGets(0, times, null);
  }

  /** Makes the next {@code times} GETs whose path contains {@code pathFragment} fail. */
  public void failNextGets(long times, String pathFragment) {
    failGets(0, times, pathFragment);
  }

  /**
   * Lets {@code skip} GETs whose path contains {@code pathFragment} (null for any) through, then
   * makes the next {@code times} of them fail. Replaces any earlier GET rule.
   */
  public void failGets(long skip, long times, String pathFragment) {
    requireCount(skip);
    requireCount(times);
    long address = handle.enter();
    try {
      Native.faultFailGets(address, skip, times, pathFragment);
    } finally {
      handle.exit();
    }
  }

  /** Delays every PUT and GET by the given durations (zero for none). */
  public void latency(Duration put, Duration get) {
    if (put == null || get == null || put.isNegative() || get.isNegative()) {
      throw new KvInvalidArgumentException("latencies must be zero or positive");
    }
    long address = handle.enter();
    try {
      Native.faultLatency(address, put.toMillis(), get.toMillis());
    } finally {
      handle.exit();
    }
  }

  /** Holds every PUT until {@link #releasePuts()}. */
  public void holdPuts() {
    holdPuts(null);
  }

  /** Holds PUTs whose path contains {@code pathFragment} until {@link #releasePuts()}. */
  public void holdPuts(String pathFragment) {
    long address = handle.enter();
    try {
      Native.faultHoldPuts(address, pathFragment);
    } finally {
      handle.exit();
    }
  }

  /** Lets held PUTs proceed and stops holding new ones. */
  public void releasePuts() {
    long address = handle.enter();
    try {
      Native.faultReleasePuts(address);
    } finally {
      handle.exit();
    }
  }

  /** Successful PUTs so far. */
  public long putCount() {
    return count(PUTS, null);
  }

  /** Successful PUTs so far whose path contains {@code pathFragment}. */
  public long putCount(String pathFragment) {
    return count(PUTS, pathFragment);
  }

  /** Successful GETs so far. */
  public long getCount() {
    return count(GETS, null);
  }

  /** Successful GETs so far whose path contains {@code pathFragment}. */
  public long getCount(String pathFragment) {
    return count(GETS, pathFragment);
  }

  /** PUT attempts failed on purpose so far. */
  public long injectedPutFailures() {
    return count(INJECTED_PUT_FAILURES, null);
  }

  /** GET attempts failed on purpose so far. */
  public long injectedGetFailures() {
    return count(INJECTED_GET_FAILURES, null);
  }

  /** Clears every rule, latency and counter, and releases held PUTs. */
  public void reset() {
    long address = handle.enter();
    try {
      Native.faultReset(address);
    } finally {
      handle.exit();
    }
  }

  /** The guarded native handle, for building a store around this injector. */
  NativeHandle handle() {
    return handle;
  }

  /** Releases held PUTs and frees the injector. Idempotent. */
  @Override
  public void close() {
    if (handle.beginClose()) {
      handle.finishClose();
    }
  }

  private long count(int which, String pathFragment) {
    long address = handle.enter();
    try {
      return Native.faultCount(address, which, pathFragment);
    } finally {
      handle.exit();
    }
  }

  private static void requireCount(long times) {
    if (times < 0) {
      throw new KvInvalidArgumentException("times must not be negative");
    }
  }
}
