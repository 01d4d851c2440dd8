package dev.moraine.core.kv;

/**
 * Which writes a read may see: every applied write, or only those already durable in the object
 * store. The engine serves acknowledged state with {@link #REMOTE}: a write it has not yet
 * acknowledged (because its write-ahead log was not flushed) is then invisible.
 *
 * <p>What each kind of view does with the level is said on {@link KvReadView}.
 */
public enum ReadDurability {
  /** Every applied write, durable or still in memory awaiting a flush. The default. */
  MEMORY,

  /** Only writes that are durable in the object store at the time of the read. */
  REMOTE
}
