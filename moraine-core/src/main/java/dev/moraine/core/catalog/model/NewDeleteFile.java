package dev.moraine.core.catalog.model;

import java.util.Objects;
import java.util.Optional;

/** A delete file to register: the data file whose rows it deletes, where it is, and its sizes. */
public record NewDeleteFile(
    long dataFileId,
    String path,
    boolean pathIsRelative,
    String format,
    long deleteCount,
    long fileSizeBytes,
    long footerSize,
    Optional<String> encryptionKey) {
  public NewDeleteFile {
    Objects.requireNonNull(encryptionKey, "encryptionKey");
  }

  /** An unencrypted Parquet delete file at a path relative to its table. */
  public static NewDeleteFile parquet(
      long dataFileId, String relativePath, long deleteCount, long fileSizeBytes, long footer) {
    return new NewDeleteFile(
        dataFileId,
        relativePath,
        true,
        "parquet",
        deleteCount,
        fileSizeBytes,
        footer,
        Optional.empty());
  }
}
