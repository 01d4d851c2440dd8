package dev.moraine.core.kv;

/**
 * A snapshot-isolation transaction. Reads see the state when the transaction began plus its own
 * buffered writes. {@link #commit()} applies the buffered writes atomically, unless another write
 * (a transaction or a plain {@link KvStore#write}) committed to one of the same keys after this
 * transaction began: then nothing is written and {@link KvTransactionConflictException} is thrown
 * (first committer wins). Reads alone never cause a conflict.
 *
 * <p>A transaction is used by one thread at a time. After {@link #commit()} (whatever its outcome)
 * or {@link #close()}, every call throws {@link KvClosedException}.
 */
public interface KvTransaction extends KvReadView, AutoCloseable {

  /**
   * Buffers a put. Nothing reaches the store before {@link #commit()}.
   *
   * @throws KvInvalidArgumentException for a bad key or value; the transaction is unchanged
   */
  void put(byte[] key, byte[] value);

  /**
   * Buffers a delete.
   *
   * @throws KvInvalidArgumentException for a bad key; the transaction is unchanged
   */
  void delete(byte[] key);

  // ---------------------------------------------------------------- batch crossing

  /**
   * Buffers every operation of {@code batch}, in order, as if by {@link #put} and {@link #delete}
   * one at a time, but in one call into the store. Later operations on a key override earlier ones,
   * here and against what the transaction buffered before. The batch is not changed and may be
   * reused.
   *
   * @throws KvInvalidArgumentException if the batch is null or empty, or too large to hand over in
   *     one call (about 2 GiB encoded); the transaction is unchanged
   * @throws KvClosedException if the transaction or its store was closed; nothing was buffered
   * @throws KvFencedException if the store already knows a newer writer exists; nothing was
   *     buffered
   */
  void putAll(WriteBatch batch);

  /**
   * Applies the buffered writes as one atomic batch. Returns once they are applied (visible to
   * reads), not once durable: use {@link KvStore#awaitDurable(WriteReceipt)}.
   *
   * @return the receipt of the write, or null if the transaction wrote nothing
   * @throws KvTransactionConflictException if a conflicting write won; nothing was written
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was written
   * @throws KvClosedException if the transaction or store was closed; nothing was written
   * @throws KvOutcomeUnknownException if the commit failed, timed out or was interrupted after the
   *     batch was handed to the store: the writes may or may not have been applied (the failure can
   *     come after the batch reached the write-ahead log)
   */
  WriteReceipt commit();

  /** Discards the transaction if it was not committed. Idempotent; never throws. */
  @Override
  void close();
}
