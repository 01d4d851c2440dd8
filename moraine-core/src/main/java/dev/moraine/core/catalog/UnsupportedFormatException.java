package dev.moraine.core.catalog;

import java.util.OptionalLong;

/**
 * The store holds a lake this library refuses to open: its format stamp is not the one it reads
 * ({@link ErrorCode#UNSUPPORTED_FORMAT}), or it carries a migration marker ({@link
 * ErrorCode#MIGRATION_IN_PROGRESS}). The message names what was found. Nothing was written and no
 * catalog was opened; the store handle is still the caller's and unchanged. Migrate the lake with a
 * release that reads its format (or let the running migration finish), then open again.
 */
public final class UnsupportedFormatException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final long foundFormat;
  private final boolean hasFoundFormat;

  /** A refusal; {@code foundFormat} is the stamp found, or empty when there was none to report. */
  public UnsupportedFormatException(ErrorCode code, String message, OptionalLong foundFormat) {
    super(code, message);
    this.hasFoundFormat = foundFormat.isPresent();
    this.foundFormat = foundFormat.orElse(0);
  }

  /** The format version found in the store's stamp, if one was read. */
  public OptionalLong foundFormat() {
    return hasFoundFormat ? OptionalLong.of(foundFormat) : OptionalLong.empty();
  }
}
