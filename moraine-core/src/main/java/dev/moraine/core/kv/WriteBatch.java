package dev.moraine.core.kv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of puts and deletes that a store applies atomically: all of them or none. Later
 * operations on the same key override earlier ones. Keys and values are validated and copied as
 * they are added, so a batch that was built without an exception is one the store accepts.
 *
 * <p>Not thread-safe: build a batch on one thread, then hand it over.
 */
public final class WriteBatch {

  /** One operation of a batch; {@code value} is null for a delete. */
  public record Op(byte[] key, byte[] value) {
    /** True for a delete. */
    public boolean isDelete() {
      return value == null;
    }
  }

  private final List<Op> ops = new ArrayList<>();
  private long payloadBytes;

  /**
   * Adds a put.
   *
   * @throws KvInvalidArgumentException for a bad key or value; the batch is unchanged
   */
  public WriteBatch put(byte[] key, byte[] value) {
    KvLimits.checkKey(key);
    KvLimits.checkValue(value);
    ops.add(new Op(key.clone(), value.clone()));
    payloadBytes += key.length + value.length;
    return this;
  }

  /**
   * Adds a delete.
   *
   * @throws KvInvalidArgumentException for a bad key; the batch is unchanged
   */
  public WriteBatch delete(byte[] key) {
    KvLimits.checkKey(key);
    ops.add(new Op(key.clone(), null));
    payloadBytes += key.length;
    return this;
  }

  /** The operations in the order they were added. The list is read-only; do not mutate arrays. */
  public List<Op> ops() {
    return Collections.unmodifiableList(ops);
  }

  /** Number of operations. */
  public int size() {
    return ops.size();
  }

  /** True when the batch has no operation (a store refuses to write it). */
  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /** Sum of key and value lengths, for sizing decisions. */
  public long payloadBytes() {
    return payloadBytes;
  }
}
