package dev.moraine.core.kv;

/**
 * A consistent, frozen view of a store: every read sees the same state, the one current when the
 * snapshot was taken (including writes applied but not yet durable), and never a later write. Close
 * it to release what it pins.
 */
public interface KvSnapshot extends KvReadView, AutoCloseable {

  /** Releases the snapshot. Idempotent; never throws. */
  @Override
  void close();
}
