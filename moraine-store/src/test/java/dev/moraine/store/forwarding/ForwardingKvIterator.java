package dev.moraine.store.forwarding;

import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;

/** A {@link KvIterator} that hands every call to another; subclasses override what they watch. */
public class ForwardingKvIterator implements KvIterator {
  private final KvIterator delegate;

  public ForwardingKvIterator(KvIterator delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean hasNext() {
    return delegate.hasNext();
  }

  @Override
  public KeyValue next() {
    return delegate.next();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
