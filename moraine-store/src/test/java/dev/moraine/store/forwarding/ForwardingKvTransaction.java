package dev.moraine.store.forwarding;

import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.ReadDurability;
import dev.moraine.core.kv.ScanOrder;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.util.List;

/**
 * A {@link KvTransaction} that hands every call to another; subclasses override what they watch.
 * Stateless itself, so it is exactly as thread-confined as the transaction it wraps.
 */
public class ForwardingKvTransaction implements KvTransaction {
  /** The wrapped transaction. */
  protected final KvTransaction delegate;

  public ForwardingKvTransaction(KvTransaction delegate) {
    this.delegate = delegate;
  }

  @Override
  public byte[] get(byte[] key, ReadDurability durability) {
    return delegate.get(key, durability);
  }

  @Override
  public KvIterator scan(KeyRange range, ScanOrder order, ReadDurability durability) {
    return delegate.scan(range, order, durability);
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys, ReadDurability durability) {
    return delegate.getAll(keys, durability);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    delegate.put(key, value);
  }

  @Override
  public void delete(byte[] key) {
    delegate.delete(key);
  }

  @Override
  public void putAll(WriteBatch batch) {
    delegate.putAll(batch);
  }

  @Override
  public WriteReceipt commit() {
    return delegate.commit();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
