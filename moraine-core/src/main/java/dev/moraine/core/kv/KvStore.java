package dev.moraine.core.kv;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The read-write handle of a store. A process holds at most one per store; opening another writer
 * anywhere fences this one ({@link KvFencedException} from then on).
 *
 * <p>Writes are applied in memory first (reads see them at once) and become durable when the
 * write-ahead log is flushed to the object store, either by the store's own flush timer, if it has
 * one, or by {@link #flushWal()}. Every write returns a {@link WriteReceipt}; {@link
 * #awaitDurable(WriteReceipt)} blocks until that write is durable, {@link
 * #durableFuture(WriteReceipt)} does the same without a thread. Only {@code durableSeqnum() >=
 * receipt.seqnum()} proves a write durable.
 *
 * <p><b>Outcomes.</b> A call refused before it handed anything to the store (a bad argument, a
 * closed handle, a handle already known to be fenced) throws {@link KvInvalidArgumentException},
 * {@link KvClosedException} or {@link KvFencedException}: nothing was written. A call that fails
 * after it handed its effect to the store throws {@link KvOutcomeUnknownException}: what holds
 * afterwards is unknown.
 *
 * <p><b>Bounds.</b> Every blocking call is bounded: by its timeout argument where it has one,
 * otherwise by the store's operation timeout (an implementation setting). A call that reaches its
 * bound after submission throws {@link KvOutcomeUnknownException} with reason {@code TIMEOUT}. A
 * thread interrupted while blocked in a call returns promptly with {@link
 * KvOutcomeUnknownException} (reason {@code INTERRUPTED}) and its interrupt flag set.
 *
 * <p>Thread-safe. {@link #close()} may race any other call: the other call either completes or
 * fails with a typed exception; it never crashes the process.
 */
public interface KvStore extends KvReadView, AutoCloseable {

  /**
   * Applies a batch atomically. Returns once it is applied, not once durable.
   *
   * <p>A handle learns that it was fenced at its next write-ahead-log flush or manifest poll. A
   * write made before then is applied in memory and returns normally, but it never becomes durable:
   * the {@link #flushWal()} or {@link #awaitDurable(WriteReceipt)} that follows fails. Only
   * durability proves the handle was still the writer.
   *
   * @throws KvInvalidArgumentException if the batch is empty; nothing was written
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was written
   * @throws KvClosedException if the store was closed; nothing was written
   * @throws KvOutcomeUnknownException if the write failed, timed out or was interrupted after it
   *     was handed to the store; it may or may not have been applied, and may or may not become
   *     durable
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
   * The period of the store's own write-ahead-log flush timer, or empty when it is off: then the
   * log is flushed only by {@link #flushWal()}, when its buffer fills, and on close. A writer
   * catalog paces the flushes itself and refuses a store whose timer is on.
   */
  Optional<Duration> flushTimer();

  /**
   * Where the store's write-ahead log is written when it has an object store of its own (its
   * location, a line naming the store and no credential), or empty when the log is kept in the
   * store's own object store. A catalog records it and refuses an open with another.
   */
  Optional<String> walStore();

  /**
   * Writes what is in memory out to the store's own object store (the memtable as a sorted-string
   * table), after making the log durable, and moves the log's replay point past it: afterwards
   * nothing written so far needs the log to be read back. It is how a catalog makes sure its store,
   * not only its log, holds a record, and how a separate log store is emptied before it is moved.
   *
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was done
   * @throws KvClosedException if the store was closed before the call
   * @throws KvOutcomeUnknownException if the flush failed, timed out or was interrupted: what was
   *     in memory may or may not be in the store's own object store (it is in the log, if the log
   *     flush succeeded)
   */
  void flushMemtable();

  /**
   * Flushes the write-ahead log: when this returns, every write applied before the call is durable.
   *
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was flushed
   * @throws KvClosedException if the store was closed before the call; nothing was flushed
   * @throws KvOutcomeUnknownException if the flush failed (a fence it discovered, an object-store
   *     failure beyond the retries, a close), timed out or was interrupted: the writes before the
   *     call may or may not be durable. A fence found here does not prove a write was lost (the
   *     store may take its own object, whose response was lost, for a newer writer's). After a
   *     fence or a store failure the handle is dead: open a new writer and reconcile against what
   *     it reads.
   */
  void flushWal();

  /**
   * Blocks until the write with this receipt is durable, for at most the store's operation timeout.
   * Does not flush by itself: with the store's flush timer off, some caller must call {@link
   * #flushWal()}. Returns normally whenever the durable sequence number has reached the receipt,
   * even if the handle is fenced or closed by then.
   *
   * @throws KvInvalidArgumentException if the receipt is null or was issued by another handle
   * @throws KvOutcomeUnknownException if the handle was fenced, closed or failed before the write
   *     became durable, the operation timeout passed, or the thread was interrupted: the write may
   *     or may not be durable
   */
  void awaitDurable(WriteReceipt receipt);

  /**
   * Like {@link #awaitDurable(WriteReceipt)} but gives up after {@code timeout} (zero or negative:
   * look once) instead of the operation timeout.
   *
   * @return true if the write is durable, false if the timeout passed first (the write may still
   *     become durable)
   * @throws KvInvalidArgumentException if an argument is null or the receipt was issued by another
   *     handle
   * @throws KvOutcomeUnknownException as {@link #awaitDurable(WriteReceipt)}, except for the
   *     timeout
   */
  boolean awaitDurable(WriteReceipt receipt, Duration timeout);

  /**
   * A future that completes normally once the write with this receipt is durable. It completes
   * exceptionally with {@link KvOutcomeUnknownException} if the handle is fenced, closed or fails
   * before the durable sequence number reaches the receipt. No thread is parked per future: one
   * watcher per handle completes them all, in sequence-number order. The future has no time bound
   * of its own; use {@link CompletableFuture#orTimeout} for one. Cancelling or completing it
   * affects only the caller's copy.
   *
   * @throws KvInvalidArgumentException if the receipt is null or was issued by another handle
   */
  CompletableFuture<Void> durableFuture(WriteReceipt receipt);

  /**
   * The highest sequence number known durable. Stays readable after the handle was fenced, failed
   * or closed: then it is the final value, which is what reconciliation needs.
   */
  long durableSeqnum();

  /**
   * Writes a durable checkpoint covering every write that is durable at the time of the call, and
   * returns its id. A reader opened at the checkpoint sees exactly that state.
   *
   * @param lifetime how long the checkpoint lives before the store may delete it; null for forever
   * @throws KvInvalidArgumentException if the lifetime is zero or negative
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was written
   * @throws KvClosedException if the store was closed before the call
   * @throws KvOutcomeUnknownException if the call failed, timed out or was interrupted after it
   *     began writing: the checkpoint may or may not exist
   */
  CheckpointId createCheckpoint(Duration lifetime);

  /**
   * Deletes a checkpoint from the store's manifest, so that it no longer pins the objects it covers
   * nor weighs on later manifest writes. Deleting one that is not there (any more) is not an error.
   * A reader opened at it before keeps reading until it closes.
   *
   * @throws KvInvalidArgumentException if the id is null
   * @throws KvFencedException if the handle already knew a newer writer exists; nothing was changed
   * @throws KvClosedException if the store was closed before the call; nothing was changed
   * @throws KvOutcomeUnknownException if the call failed, timed out or was interrupted after it
   *     began writing: the checkpoint may or may not still exist
   */
  void deleteCheckpoint(CheckpointId checkpoint);

  /**
   * Flushes what is in memory and closes the store, within the store's operation timeout.
   * Idempotent. After close every call throws {@link KvClosedException}, except {@link
   * #durableSeqnum()} and waits for writes that became durable. A close that fails still releases
   * the handle.
   *
   * @throws KvOutcomeUnknownException if the final flush failed, timed out or was interrupted:
   *     writes not yet durable may or may not be. Closing a handle that already knew it was fenced
   *     or failed reports nothing (its earlier calls reported the outcome).
   */
  @Override
  void close();
}
