package dev.moraine.core.catalog;

import java.util.Optional;

/**
 * The store was opened with another write-ahead-log store than the one its catalog records: a
 * different one, none though one is recorded, or one though the catalog keeps its log in the
 * store's own object store. Opening it anyway would read the wrong log and miss the commits only
 * the right one holds, so the catalog refuses, and nothing was written. Open the store again with
 * the recorded log store ({@link #recorded()}); to move the log, use {@link Catalog#moveWalStore}.
 */
public final class WalStoreMismatchException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final String recorded;
  private final String opened;

  /**
   * @param recorded the log store the catalog records, or null for the store's own
   * @param opened the log store the store was opened with, or null for the store's own
   */
  public WalStoreMismatchException(String recorded, String opened) {
    super(
        ErrorCode.WAL_STORE_MISMATCH,
        "the catalog keeps its write-ahead log in "
            + describe(recorded)
            + ", but the store was opened with its log in "
            + describe(opened)
            + "; nothing was opened or written: open it with the recorded log store");
    this.recorded = recorded;
    this.opened = opened;
  }

  private static String describe(String location) {
    return location == null ? "the store's own object store" : location;
  }

  /** The log store the catalog records; empty for the store's own object store. */
  public Optional<String> recorded() {
    return Optional.ofNullable(recorded);
  }

  /** The log store the store was opened with; empty for the store's own object store. */
  public Optional<String> opened() {
    return Optional.ofNullable(opened);
  }
}
