package dev.moraine.core.catalog.model;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The files a flush of a table's inlined data registers, all written by the caller beforehand, as
 * {@code ducklake_flush_inlined_data} writes them:
 *
 * <ul>
 *   <li>{@code dataFile}: every inlined row of the table in row-id order, deleted ones included;
 *       absent when nothing is inlined (a flush of inlined file deletions alone);
 *   <li>{@code rowDeletes}: the positions in that file of the rows deleted while inlined; present
 *       exactly when some were;
 *   <li>{@code fileDeletes}: for each data file with rows deleted inline, a delete file listing
 *       those positions; keyed by the data file's id, one for each such file;
 *   <li>{@code through}: the snapshot the caller read the inlined data at to write these files.
 *       Rows inlined after it stay inlined (stock DuckLake's flush, overtaken by a concurrent
 *       insert, lands with the rows it read and leaves the newer ones inline); empty for the
 *       commit's premise, whatever it turns out to be.
 * </ul>
 */
public record InlineFlush(
    Optional<NewDataFile> dataFile,
    Optional<FlushDeleteFile> rowDeletes,
    Map<Long, FlushDeleteFile> fileDeletes,
    OptionalLong through) {
  /** Copies the map, ordered by data file id. */
  public InlineFlush {
    Objects.requireNonNull(dataFile, "dataFile");
    Objects.requireNonNull(rowDeletes, "rowDeletes");
    Objects.requireNonNull(through, "through");
    TreeMap<Long, FlushDeleteFile> copy = new TreeMap<>(Long::compareUnsigned);
    copy.putAll(Objects.requireNonNull(fileDeletes, "fileDeletes"));
    fileDeletes = java.util.Collections.unmodifiableMap(copy);
  }

  /** A flush of inlined rows into {@code dataFile}. */
  public static InlineFlush of(NewDataFile dataFile) {
    return new InlineFlush(Optional.of(dataFile), Optional.empty(), Map.of(), OptionalLong.empty());
  }

  /** A flush of nothing but inlined deletions of data-file rows. */
  public static InlineFlush fileDeletesOnly() {
    return new InlineFlush(Optional.empty(), Optional.empty(), Map.of(), OptionalLong.empty());
  }

  /** This flush with the delete file of the rows deleted while inlined. */
  public InlineFlush withRowDeletes(FlushDeleteFile deletes) {
    return new InlineFlush(dataFile, Optional.of(deletes), fileDeletes, through);
  }

  /** This flush with the delete file of data file {@code dataFileId}'s inline-deleted rows. */
  public InlineFlush withFileDeletes(long dataFileId, FlushDeleteFile deletes) {
    TreeMap<Long, FlushDeleteFile> more = new TreeMap<>(Long::compareUnsigned);
    more.putAll(fileDeletes);
    more.put(dataFileId, deletes);
    return new InlineFlush(dataFile, rowDeletes, more, through);
  }

  /** This flush of the inlined data as snapshot {@code snapshotId} saw it. */
  public InlineFlush through(long snapshotId) {
    return new InlineFlush(dataFile, rowDeletes, fileDeletes, OptionalLong.of(snapshotId));
  }
}
