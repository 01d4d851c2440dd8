package dev.moraine.duckdb.export;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import java.nio.file.Path;

/**
 * An export into a DuckDB file was refused before anything was written ({@link
 * ErrorCode#EXPORT_REFUSED}); the file is left exactly as it was. {@link #reason()} says why.
 */
public final class ExportRefusedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  /** Why an export was refused. */
  public enum Reason {
    /** The file is not a DuckDB database, or holds tables other than a DuckLake 1.0 catalog's. */
    NOT_A_CATALOG,
    /**
     * The file's snapshot log is not a prefix of this lake's: it was exported from another lake.
     */
    HISTORY_DISAGREES,
    /** The file already holds a snapshot later than the one being exported. */
    FILE_AHEAD,
    /** Another process holds the file open (DuckDB locks a database file it writes). */
    IN_USE
  }

  private final transient Path file;
  private final Reason reason;

  /**
   * @param file the file refused
   * @param reason why
   * @param detail what was found, for people
   */
  public ExportRefusedException(Path file, Reason reason, String detail) {
    this(file, reason, detail, null);
  }

  /**
   * @param file the file refused
   * @param reason why
   * @param detail what was found, for people
   * @param cause what DuckDB reported, if anything
   */
  public ExportRefusedException(Path file, Reason reason, String detail, Throwable cause) {
    super(
        ErrorCode.EXPORT_REFUSED,
        "export into " + file + " refused: " + detail + "; the file was left as it was",
        cause);
    this.file = file;
    this.reason = reason;
  }

  /** The file refused. */
  public Path file() {
    return file;
  }

  /** Why it was refused. */
  public Reason reason() {
    return reason;
  }
}
