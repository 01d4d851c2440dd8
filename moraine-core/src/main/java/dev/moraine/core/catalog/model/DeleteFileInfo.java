package dev.moraine.core.catalog.model;

import java.util.Optional;
import java.util.OptionalLong;

/** A live delete file ({@code ducklake_delete_file}) at a snapshot. */
public record DeleteFileInfo(
    long tableId,
    long deleteFileId,
    long beginSnapshot,
    long dataFileId,
    String path,
    boolean pathIsRelative,
    String format,
    long deleteCount,
    long fileSizeBytes,
    long footerSize,
    Optional<String> encryptionKey,
    OptionalLong partialMax) {}
