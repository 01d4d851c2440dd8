package dev.moraine.core.dump;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.SnapshotInfo;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The {@code moraine-dump-v1} document of a catalog (docs/dump-format.md): every snapshot from 0 to
 * the head that has not been expired, or one snapshot, as compact JSON with sorted keys.
 *
 * <p>A dump only reads, through the catalog's public read model, so it works on a read-only catalog
 * and never writes to the store. The head is read once at the start; snapshots committed while the
 * dump runs are not in it. Snapshots are rendered one at a time as they are written, so the dump
 * itself holds one snapshot's tree at a time, whatever the number of snapshots (the catalog's own
 * cache of recent views aside).
 */
public final class CatalogDump {
  /** The value of the document's {@code format} key. */
  public static final String FORMAT = "moraine-dump-v1";

  private CatalogDump() {}

  /**
   * Appends the dump of every snapshot from 0 to the current head (expired ones left out) to {@code
   * out}, followed by a newline.
   *
   * @throws UnrenderableValueException if an inlined value has a type the format cannot show; the
   *     catalog is unchanged, and what was appended to {@code out} is incomplete
   * @throws java.io.UncheckedIOException if {@code out} fails
   * @throws dev.moraine.core.catalog.MoraineException as the catalog's reads throw it (a damaged
   *     record, a failed or closed store); the catalog is unchanged
   */
  public static void writeAll(ReadOnlyCatalog catalog, Appendable out) {
    long head = catalog.head().snapshotId();
    CatalogSnapshot top = catalog.snapshotAt(head);
    // The snapshot log lists the records that exist (expired ones are absent), in id order.
    List<SnapshotInfo> log = top.snapshotLog();
    Iterable<Object> snapshots = () -> new Rendered(catalog, log.iterator());
    write(head, top, snapshots, out);
  }

  /**
   * Appends the dump of snapshot {@code snapshotId} alone (the {@code snapshots} array holds one
   * element) to {@code out}, followed by a newline. The id is unsigned.
   *
   * @throws NotFoundException with {@link ErrorCode#NOT_FOUND} if the id is above the head, or
   *     {@link ErrorCode#SNAPSHOT_EXPIRED} if that snapshot has been expired; nothing was appended
   * @throws UnrenderableValueException if an inlined value has a type the format cannot show;
   *     nothing was appended
   * @throws java.io.UncheckedIOException if {@code out} fails
   * @throws dev.moraine.core.catalog.MoraineException as the catalog's reads throw it; the catalog
   *     is unchanged
   */
  public static void writeAt(ReadOnlyCatalog catalog, long snapshotId, Appendable out) {
    long head = catalog.head().snapshotId();
    if (Long.compareUnsigned(snapshotId, head) > 0) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "snapshot "
              + Long.toUnsignedString(snapshotId)
              + " does not exist (the head is "
              + Long.toUnsignedString(head)
              + ")");
    }
    CatalogSnapshot top = catalog.snapshotAt(head);
    // Rendered before anything is appended, so a failure leaves `out` as it was.
    Object only = SnapshotTree.of(catalog.snapshotAt(snapshotId));
    write(head, top, List.of(only), out);
  }

  /** The whole dump as a string (see {@link #writeAll}). */
  public static String allToString(ReadOnlyCatalog catalog) {
    StringBuilder text = new StringBuilder();
    writeAll(catalog, text);
    return text.toString();
  }

  /** The dump of one snapshot as a string (see {@link #writeAt}). */
  public static String atToString(ReadOnlyCatalog catalog, long snapshotId) {
    StringBuilder text = new StringBuilder();
    writeAt(catalog, snapshotId, text);
    return text.toString();
  }

  private static void write(
      long head, CatalogSnapshot top, Iterable<Object> snapshots, Appendable out) {
    // Options and scheduled deletions carry no snapshot range: their present state, given once.
    Object options = LakeState.options(top);
    Object deletions = LakeState.scheduledDeletions(top);
    CompactJson.write(
        Obj.of()
            .with("format", FORMAT)
            .with("head", Obj.unsigned(head))
            .with("options", options)
            .with("scheduled_deletions", deletions)
            .with("snapshots", snapshots),
        out);
    try {
      out.append('\n');
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The snapshots of the log rendered one at a time, as the writer asks for them. A snapshot that
   * is expired by the time it is reached (an expiry committed while the dump runs) is left out, as
   * one expired before the dump began is.
   */
  private static final class Rendered implements Iterator<Object> {
    private final ReadOnlyCatalog catalog;
    private final Iterator<SnapshotInfo> ids;
    private Object next;

    Rendered(ReadOnlyCatalog catalog, Iterator<SnapshotInfo> ids) {
      this.catalog = catalog;
      this.ids = ids;
    }

    @Override
    public boolean hasNext() {
      while (next == null && ids.hasNext()) {
        long id = ids.next().snapshotId();
        try {
          next = SnapshotTree.of(catalog.snapshotAt(id));
        } catch (NotFoundException e) {
          if (e.code() != ErrorCode.SNAPSHOT_EXPIRED) {
            throw e;
          }
        }
      }
      return next != null;
    }

    @Override
    public Object next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Object rendered = next;
      next = null;
      return rendered;
    }
  }
}
