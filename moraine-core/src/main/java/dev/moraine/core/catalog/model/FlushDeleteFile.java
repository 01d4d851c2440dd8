package dev.moraine.core.catalog.model;

import java.util.Objects;

/**
 * The delete file a flush of inlined data registers beside its data file when some of the flushed
 * rows were deleted while inlined: it lists their positions in the flushed file. Its target (the
 * flushed file) and its delete count (the deleted rows) are known to the flush, not the caller.
 */
public record FlushDeleteFile(
    String path, boolean pathIsRelative, String format, long fileSizeBytes, long footerSize) {
  public FlushDeleteFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(format, "format");
  }

  /** A Parquet delete file at a path relative to its table. */
  public static FlushDeleteFile parquet(String relativePath, long fileSizeBytes, long footerSize) {
    return new FlushDeleteFile(relativePath, true, "parquet", fileSizeBytes, footerSize);
  }
}
