package dev.moraine.core.kv;

import java.util.List;

/**
 * A {@link KvStore#writeAll(List)} that applied some of its batches and then failed.
 *
 * <p>What holds afterwards: the batches before {@link #failedIndex()} were applied, with the
 * receipts in {@link #applied()} (applied, not yet durable: await them as usual); the outcome of
 * the batch at {@link #failedIndex()} is unknown (it may or may not have been applied, and may
 * become durable); the batches after it were never handed to the store and were not written. The
 * failure of that batch is the {@link #getCause() cause}, a {@link KvException} whose type says
 * what the handle can still do (for example {@link KvFencedException}: stop writing).
 */
public final class KvPartialWriteException extends KvException {
  private static final long serialVersionUID = 1L;

  private final transient List<WriteReceipt> applied;
  private final int failedIndex;

  /**
   * @param applied the receipts of the batches applied before the failure, in order (at least one)
   * @param cause the failure of the batch at index {@code applied.size()}
   */
  public KvPartialWriteException(List<WriteReceipt> applied, KvException cause) {
    super(
        applied.size()
            + " batch(es) applied, then batch "
            + applied.size()
            + " failed with an unknown outcome: "
            + cause.getMessage(),
        cause);
    this.applied = List.copyOf(applied);
    this.failedIndex = applied.size();
  }

  /** The receipts of the batches applied before the failure, in list order. */
  public List<WriteReceipt> applied() {
    return applied;
  }

  /** The index of the batch whose outcome is unknown; the batches before it were applied. */
  public int failedIndex() {
    return failedIndex;
  }

  /** The failure of the batch at {@link #failedIndex()}. */
  @Override
  public synchronized KvException getCause() {
    return (KvException) super.getCause();
  }
}
