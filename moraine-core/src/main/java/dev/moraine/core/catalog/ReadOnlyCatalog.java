package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.MaintenancePass;
import java.time.Instant;
import java.util.List;

/**
 * A catalog that can only be read: snapshot views at the head, by snapshot id and by time. It has
 * no commit methods at all, so committing through it does not compile. Obtained from {@link
 * Catalog#openReadOnly}; a {@link Catalog} is also one.
 *
 * <p>Reads never write to the store and never wait for a commit. Closing the catalog does not close
 * the store handle it was opened on: that handle stays the caller's, and must outlive the catalog.
 */
public interface ReadOnlyCatalog extends AutoCloseable {
  /**
   * The store's head as it stands now (one point read).
   *
   * @throws UnsupportedFormatException if a migration has started on the store since it was opened
   * @throws CorruptionException if the head record is damaged
   * @throws StoreUnavailableException if the store failed; nothing changed, the call can be
   *     repeated
   * @throws ClosedException if the catalog or its store handle was closed
   * @throws FencedException if the store handle was fenced by a newer writer
   */
  Head head();

  /**
   * The catalog at its latest snapshot. Reads the head; when the head has not moved since the last
   * call, the same view comes back, otherwise a new one that keeps what the commits in between left
   * unchanged.
   *
   * @throws UnsupportedFormatException if a migration has started on the store since it was opened
   * @throws CorruptionException if the head or its snapshot record is damaged or missing
   * @throws StoreUnavailableException if the store failed; nothing changed, the call can be
   *     repeated
   * @throws ClosedException if the catalog or its store handle was closed
   * @throws FencedException if the store handle was fenced by a newer writer
   */
  CatalogSnapshot snapshot();

  /**
   * The catalog as it stood at snapshot {@code snapshotId} (time travel). The id is unsigned.
   *
   * @throws NotFoundException with {@link ErrorCode#NOT_FOUND} if the id is after the head, or
   *     {@link ErrorCode#SNAPSHOT_EXPIRED} if its record has been expired; nothing changed
   * @throws CorruptionException if the head or the snapshot record is damaged
   * @throws StoreUnavailableException, ClosedException, FencedException as for {@link #snapshot()}
   */
  CatalogSnapshot snapshotAt(long snapshotId);

  /**
   * The catalog at the latest snapshot whose time is at or before {@code instant}.
   *
   * @throws InvalidArgumentException if {@code instant} is null
   * @throws NotFoundException with {@link ErrorCode#NOT_FOUND} if the instant is before the first
   *     snapshot, or {@link ErrorCode#SNAPSHOT_EXPIRED} if the snapshots of that time have been
   *     expired; nothing changed
   * @throws CorruptionException if the head or a snapshot record is damaged
   * @throws StoreUnavailableException, ClosedException, FencedException as for {@link #snapshot()}
   */
  CatalogSnapshot snapshotAsOf(Instant instant);

  /**
   * The maintenance passes the catalog records ({@code sys/maintenance_status}, RFC 0005 §5),
   * newest first, at most 16: those of this library's maintenance and those of the Rust
   * implementation's.
   *
   * @throws CorruptionException if the record is damaged
   * @throws StoreUnavailableException, ClosedException, FencedException as for {@link #snapshot()}
   */
  List<MaintenancePass> maintenanceStatus();

  /**
   * The rows that the equality index {@code indexName} of table {@code tableId} (one the Rust
   * implementation created; {@link CatalogSnapshot#indexes} lists them) gives for {@code values},
   * one per indexed column in the index's order, as the Java values the inline verbs take (null for
   * a NULL), ascending by row id: the rows of the head whose indexed columns hold those values. The
   * entries are read as the store holds them now, which is the head's state; they are not
   * versioned, so there is no lookup at an older snapshot. A {@code uuid} is looked up in both
   * forms it is stored in (its text for an inlined row, its 16 bytes for a data-file row).
   *
   * @throws NotFoundException if the table has no live index of that name
   * @throws InvalidArgumentException if the index is not ready (its build is under way, or it is
   *     poisoned), the number of values is not the number of indexed columns, or a value is not of
   *     its column's type
   * @throws StoreUnavailableException, ClosedException, FencedException as for {@link #snapshot()}
   */
  List<Long> lookupIndex(long tableId, String indexName, List<?> values);

  /**
   * Closes the catalog: cached views are dropped, and later calls (and loads by snapshots it handed
   * out) throw {@link ClosedException}. Idempotent. Does not close the store handle.
   */
  @Override
  void close();
}
