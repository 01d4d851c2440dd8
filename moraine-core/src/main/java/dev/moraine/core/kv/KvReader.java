package dev.moraine.core.kv;

import java.util.Optional;

/**
 * A read-only handle on a store. It never writes data and never fences the writer. Depending on how
 * it was opened ({@link ReaderMode}) it either follows the writer's durable state, picking up new
 * writes each time it polls the store's manifest, or stays pinned at one checkpoint forever.
 *
 * <p>Thread-safe; close may race other calls as for {@link KvStore}.
 */
public interface KvReader extends KvReadView, AutoCloseable {

  /**
   * Where the store's write-ahead log is read from when it has an object store of its own (see
   * {@link KvStore#walStore()}), or empty when the log is kept in the store's own object store.
   */
  Optional<String> walStore();

  /** Releases the reader. Idempotent; never throws. */
  @Override
  void close();
}
