package dev.moraine.store;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;

/**
 * A lake location that cannot be opened as a lake, found before anything was written there: the
 * text names no place a lake can be ({@link ErrorCode#INVALID_LOCATION}: an unknown URI scheme, an
 * {@code s3://} URI without a bucket or without a credential choice), the place does not exist
 * ({@link ErrorCode#LOCATION_NOT_FOUND}: a missing bucket), or it holds something other than a lake
 * ({@link ErrorCode#NOT_A_LAKE}: files and no SlateDB database, a file instead of a directory, a
 * SlateDB database with no catalog in it). Nothing was written and nothing stays open. Fix the
 * location, or create the bucket, and open again.
 */
public final class LakeLocationException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** A refused location; {@code code} says why, the message names the location. */
  public LakeLocationException(ErrorCode code, String message) {
    super(code, message);
  }
}
