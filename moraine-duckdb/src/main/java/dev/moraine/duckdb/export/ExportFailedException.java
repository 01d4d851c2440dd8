package dev.moraine.duckdb.export;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import java.nio.file.Path;

/**
 * Writing an export failed part way ({@link ErrorCode#EXPORT_FAILED}): DuckDB refused a statement,
 * or the file system failed. The export's transaction was rolled back, or the new file it was
 * building removed, so the file is left as it was; the export may be run again.
 */
public final class ExportFailedException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /**
   * @param file the file being written
   * @param detail what failed
   * @param cause the failure
   */
  public ExportFailedException(Path file, String detail, Throwable cause) {
    super(
        ErrorCode.EXPORT_FAILED,
        "export into " + file + " failed: " + detail + "; the file was left as it was",
        cause);
    this.file = file;
  }

  /** The file being written. */
  public Path file() {
    return file;
  }
}
