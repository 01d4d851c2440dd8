package dev.moraine.core.kv;

import java.util.Iterator;

/**
 * A scan in progress. Holds native resources until closed: use try-with-resources. Iterating after
 * the handle it came from is closed throws {@link KvClosedException}. Not thread-safe.
 */
public interface KvIterator extends Iterator<KeyValue>, AutoCloseable {

  /**
   * {@inheritDoc}
   *
   * @throws KvClosedException if this iterator or its store was closed
   * @throws KvUnavailableException if the object store failed while reading ahead
   * @throws KvDataException if stored data is corrupt or missing
   */
  @Override
  boolean hasNext();

  /** Releases the scan. Idempotent; never throws. */
  @Override
  void close();
}
