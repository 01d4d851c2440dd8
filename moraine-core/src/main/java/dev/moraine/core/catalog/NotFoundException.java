package dev.moraine.core.catalog;

/**
 * What was asked for does not exist: a snapshot id above the head ({@link ErrorCode#NOT_FOUND}), an
 * expired one ({@link ErrorCode#SNAPSHOT_EXPIRED}), a time before the first snapshot ({@link
 * ErrorCode#NOT_FOUND}), or a store with no catalog opened read-only ({@link
 * ErrorCode#NOT_INITIALIZED}). Nothing was written; the catalog and its store are unchanged and
 * usable. Re-resolve from the head, or open the store as a writer to create the catalog.
 */
public final class NotFoundException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A missing entity, snapshot or catalog; {@code code} says which. */
  public NotFoundException(ErrorCode code, String message) {
    super(code, message);
  }
}
