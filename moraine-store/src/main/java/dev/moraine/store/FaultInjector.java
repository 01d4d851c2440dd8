package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.time.Duration;

/**
 * Injects faults into the object store of a {@link ObjectStoreSpec.Faulty} spec, for tests: let N
 * PUTs, GETs, LISTs or DELETEs through and fail the next M, fail a PUT after the object store
 * applied it, delay PUTs and GETs, hold PUTs until released, and count the operations that reached
 * the object store and the failures injected.
 *
 * <p>Rules select operations by a path fragment. Paths are matched as if they began with {@code /},
 * so the fragments {@link #WAL}, {@link #MANIFEST} and {@link #COMPACTED} select SlateDB's
 * write-ahead log, manifest and compacted SST objects whatever the store path. A LIST is matched by
 * its prefix as a directory: a listing of {@code db/manifest} matches {@link #MANIFEST}.
 *
 * <p>Counts are kept per operation and object class (WAL, manifest, compacted SST, anything else):
 * each operation costs one atomic increment, whatever the number of operations so far, and a count
 * is asked for one of those three fragments or for all objects (null). Any other fragment is
 * refused with {@link KvInvalidArgumentException}.
 *
 * <p>SlateDB retries failed object-store operations up to the configured {@link
 * StoreSettings#objectStoreMaxRetries()} times, and every retry reaches this injector: to make one
 * SlateDB operation fail, fail more attempts than that. Completed counts include only attempts the
 * underlying store completed successfully; a LIST counts when its listing is handed out. Copying,
 * renaming and multipart uploads pass through uncounted.
 *
 * <p>One injector may serve several stores (for example a main store and a separate WAL store, or
 * each its own injector); it stays in effect for as long as they are open. Thread-safe. {@link
 * #close()} releases held PUTs and frees the native object.
 */
public final class FaultInjector implements AutoCloseable {
  /** Fragment selecting write-ahead-log objects. */
  public static final String WAL = "/wal/";

  /** Fragment selecting manifest objects. */
  public static final String MANIFEST = "/manifest/";

  /** Fragment selecting compacted SSTs. */
  public static final String COMPACTED = "/compacted/";

  /** The object-store operations the injector fails and counts. */
  public enum Operation {
    /** A PUT of a whole object. */
    PUT,
    /** A GET of an object or of ranges of it. */
    GET,
    /** A listing of a prefix. */
    LIST,
    /** A DELETE of one object. */
    DELETE
  }

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

  /**
   * Lets {@code skip} LISTs whose prefix (as a directory) contains {@code pathFragment} (null for
   * any) through, then makes the next {@code times} of them fail. Replaces any earlier LIST rule.
   */
  public void failLists(long skip, long times, String pathFragment) {
    failOthers(Operation.LIST, skip, times, pathFragment);
  }

  /**
   * Lets {@code skip} DELETEs whose path contains {@code pathFragment} (null for any) through, then
   * makes the next {@code times} of them fail; a failed DELETE leaves its object in place. Replaces
   * any earlier DELETE rule.
   */
  public void failDeletes(long skip, long times, String pathFragment) {
    failOthers(Operation.DELETE, skip, times, pathFragment);
  }

  private void failOthers(Operation operation, long skip, long times, String pathFragment) {
    requireCount(skip);
    requireCount(times);
    long address = handle.enter();
    try {
      Native.faultFailOthers(address, operation.ordinal(), skip, times, pathFragment);
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

  /**
   * How many {@code operation}s the object store completed so far, for the object class {@code
   * pathFragment} names ({@link #WAL}, {@link #MANIFEST}, {@link #COMPACTED}) or for all objects
   * (null).
   *
   * @throws KvInvalidArgumentException for any other fragment; nothing is counted or changed
   */
  public long completed(Operation operation, String pathFragment) {
    return count(operation, false, pathFragment);
  }

  /**
   * How many {@code operation} attempts were failed on purpose so far, for the object class {@code
   * pathFragment} names or for all objects (null). A lost response counts as one.
   *
   * @throws KvInvalidArgumentException for a fragment other than the three class fragments
   */
  public long injected(Operation operation, String pathFragment) {
    return count(operation, true, pathFragment);
  }

  /** Successful PUTs so far. */
  public long putCount() {
    return completed(Operation.PUT, null);
  }

  /**
   * Successful PUTs so far of the object class {@code pathFragment} names (see {@link #completed}).
   */
  public long putCount(String pathFragment) {
    return completed(Operation.PUT, pathFragment);
  }

  /** Successful GETs so far. */
  public long getCount() {
    return completed(Operation.GET, null);
  }

  /**
   * Successful GETs so far of the object class {@code pathFragment} names (see {@link #completed}).
   */
  public long getCount(String pathFragment) {
    return completed(Operation.GET, pathFragment);
  }

  /** PUT attempts failed on purpose so far. */
  public long injectedPutFailures() {
    return injected(Operation.PUT, null);
  }

  /** GET attempts failed on purpose so far. */
  public long injectedGetFailures() {
    return injected(Operation.GET, null);
  }

  /**
   * Clears every rule, latency and count, and releases held PUTs. An operation already under way
   * may still be counted after the reset.
   */
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

  private long count(Operation operation, boolean injected, String pathFragment) {
    if (operation == null) {
      throw new KvInvalidArgumentException("operation must be given");
    }
    long address = handle.enter();
    try {
      return Native.faultCount(address, operation.ordinal(), injected, pathFragment);
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
