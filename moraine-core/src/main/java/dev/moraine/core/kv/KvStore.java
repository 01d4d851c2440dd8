package dev.moraine.core.kv;

import java.time.Duration;
import java.util.List;

/**
 * The read-write handle of a store. A process holds at most one per store; opening another writer
 * anywhere fences this one ({@link KvFencedException} from then on).
 *
 * <p>Writes are applied in memory first (reads see them at once) and become durable when the
 * write-ahead log is flushed to the object store, either by the store's own flush timer, if it has
 * one, or by {@link #flushWal()}. Every write returns a {@link WriteReceipt}; {@link
 * #awaitDurable(WriteReceipt)} blocks until that write is durable.
 *
 * <p>Thread-safe. {@link #close()} may race any other call: the other call either completes or
 * throws {@link KvClosedException}; it never crashes the process.
 */
public interface KvStore extends KvReadView, AutoCloseable {

  /**
   * Applies a batch atomically. Returns once it is applied, not once durable.
   *
   * <p>A handle learns that it was fenced at its next write-ahead-log flush or manifest poll. A
   * write made before then is applied in memory and returns normally, but it never becomes durable:
   * the {@link #flushWal()} or {@link #awaitDurable(WriteReceipt)} that follows throws {@link
   * KvFencedException}. Only durability proves the handle was still the writer.
   *
   * @throws KvInvalidArgumentException if the batch is empty; nothing was written
   * @throws KvFencedException if the handle already knows a newer writer exists; nothing was
   *     written
   * @throws KvClosedException if the store was closed; nothing was written
   * @throws KvUnavailableException if the store failed; the write may or may not have been applied
   */
  WriteReceipt write(WriteBatch batch);

  // ---------------------------------------------------------------- batch crossing

  /**
   * Applies several batches in one call into the store, in list order, each as its own atomic
   * write, exactly as if {@link #write(WriteBatch)} were called for each in turn (batch {@code i+1}
   * is applied after batch {@code i}, and receives a higher sequence number). Returns once all are
   * applied, not once durable. Nothing makes the batches atomic together.
   *
   * @return one receipt per batch, in list order
   * @throws KvInvalidArgumentException if the list is null or empty, holds a null or empty batch,
   *     or is too large to hand over in one call (about 2 GiB encoded); checked before anything is
   *     written: nothing was written
   * @throws KvPartialWriteException if the batches before some batch were applied and that one
   *     failed: it carries their receipts, the failing batch's index and its failure; the failing
   *     batch's outcome is unknown, and the batches after it were not written
   * @throws KvFencedException if the first batch failed because the handle already knows a newer
   *     writer exists; nothing was written
   * @throws KvClosedException if the first batch failed because the store was closed; nothing was
   *     written
   * @throws KvUnavailableException if the first batch failed in the store; its outcome is unknown
   *     and the batches after it were not written
   */
  List<WriteReceipt> writeAll(List<WriteBatch> batches);

  /** Begins a snapshot-isolation transaction (see {@link KvTransaction}). */
  KvTransaction begin();

  /** A consistent frozen view of the current state (see {@link KvSnapshot}). */
  KvSnapshot snapshot();

  /**
   * Flushes the write-ahead log: when this returns, every write applied before the call is durable.
   *
   * @throws KvFencedException if a newer writer exists, or the store took an object it wrote
   *     itself, whose response was lost, for a newer writer's; the unflushed writes are lost or, in
   *     the second case, durable: a fence reported here does not prove a write was lost
   * @throws KvUnavailableException if the object store failed beyond its retries; the writes may or
   *     may not be durable. The handle is then closed (every later call throws {@link
   *     KvClosedException}): open a new writer and reconcile against what it reads.
   */
  void flushWal();

  /**
   * Blocks until the write with this receipt is durable. Does not flush by itself: with the store's
   * flush timer off, some caller must call {@link #flushWal()}.
   *
   * @throws KvFencedException if the store was fenced before the write became durable
   * @throws KvClosedException if the store closed before the write became durable
   */
  void awaitDurable(WriteReceipt receipt);

  /**
   * Like {@link #awaitDurable(WriteReceipt)} but gives up after {@code timeout}.
   *
   * @return true if the write is durable, false if the timeout passed first
   */
  boolean awaitDurable(WriteReceipt receipt, Duration timeout);

  /** The highest sequence number known durable. */
  long durableSeqnum();

  /**
   * Writes a durable checkpoint covering every write that is durable at the time of the call, and
   * returns its id. A reader opened at the checkpoint sees exactly that state.
   *
   * @param lifetime how long the checkpoint lives before the store may delete it; null for forever
   * @throws KvFencedException if a newer writer exists
   * @throws KvUnavailableException if the object store failed; the checkpoint may or may not exist
   */
  CheckpointId createCheckpoint(Duration lifetime);

  /**
   * Flushes what is in memory and closes the store. Idempotent. After close every call throws
   * {@link KvClosedException}. A close that fails still releases the handle.
   */
  @Override
  void close();
}
