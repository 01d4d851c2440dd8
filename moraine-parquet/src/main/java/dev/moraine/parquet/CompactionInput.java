package dev.moraine.parquet;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One input of a compaction: a live data file of the table, where its Parquet file is on this
 * machine, and the positions (0-based, within the file) of its rows that are deleted.
 *
 * @param deletedPositions empty for a merge's inputs, which have no deletions
 */
public record CompactionInput(DataFileInfo file, Path path, SortedSet<Long> deletedPositions) {
  public CompactionInput {
    deletedPositions = Collections.unmodifiableSortedSet(new TreeSet<>(deletedPositions));
  }

  /** An input without deleted rows. */
  public static CompactionInput of(DataFileInfo file, Path path) {
    return new CompactionInput(file, path, new TreeSet<>());
  }

  /** This input with {@code positions} deleted as well. */
  public CompactionInput withDeletedPositions(Collection<Long> positions) {
    TreeSet<Long> all = new TreeSet<>(deletedPositions);
    all.addAll(positions);
    return new CompactionInput(file, path, all);
  }

  /**
   * The inputs {@code fileIds} of table {@code tableId} as {@code snapshot} holds them, each with
   * the positions its live delete file (read from its Parquet file) and its rows deleted inline
   * name. Paths registered relative to the table resolve under {@code tableDirectory}; absolute
   * ones (with or without {@code file://}) are taken as they are.
   *
   * @throws NoSuchElementException if a file id is not a live data file of the table
   * @throws IOException if a delete file cannot be read
   */
  public static List<CompactionInput> of(
      CatalogSnapshot snapshot, long tableId, List<Long> fileIds, Path tableDirectory)
      throws IOException {
    List<CompactionInput> inputs = new ArrayList<>();
    for (long id : fileIds) {
      DataFileInfo file =
          snapshot.dataFiles(tableId).stream()
              .filter(f -> f.dataFileId() == id)
              .findFirst()
              .orElseThrow(
                  () ->
                      new NoSuchElementException(
                          "data file "
                              + Long.toUnsignedString(id)
                              + " is not live in table "
                              + Long.toUnsignedString(tableId)));
      CompactionInput in = of(file, local(tableDirectory, file.path(), file.pathIsRelative()));
      for (DeleteFileInfo d : snapshot.deleteFiles(tableId)) {
        if (d.dataFileId() == id) {
          in =
              in.withDeletedPositions(
                  ParquetRows.deletePositions(local(tableDirectory, d.path(), d.pathIsRelative())));
        }
      }
      List<Long> inline = new ArrayList<>();
      for (InlinedFileDelete d : snapshot.history().inlinedFileDeletes()) {
        if (d.tableId() == tableId
            && d.dataFileId() == id
            && Long.compareUnsigned(d.beginSnapshot(), snapshot.snapshotId()) <= 0) {
          inline.add(d.rowId());
        }
      }
      inputs.add(in.withDeletedPositions(inline));
    }
    return inputs;
  }

  private static Path local(Path tableDirectory, String path, boolean relative) {
    return relative ? tableDirectory.resolve(path) : localPath(path);
  }

  /** The local file of an absolute registered path, with or without {@code file://}. */
  static Path localPath(String path) {
    return Path.of(path.startsWith("file://") ? path.substring("file://".length()) : path);
  }
}
