package dev.moraine.core.catalog.model;

import java.util.ArrayList;
import java.util.List;
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
 *   <li>{@code parts}: the data files holding the inlined rows, each with the delete file of its
 *       rows deleted while inlined. Stock DuckLake writes one data file for the rows of each schema
 *       version the table had before it was partitioned, and one for each partition of the rows
 *       inlined since, in the order of their first row ids; an unpartitioned table with rows under
 *       one version gets one. Empty when nothing is inlined (a flush of inlined file deletions
 *       alone);
 *   <li>{@code fileDeletes}: for each data file with rows deleted inline, a delete file listing
 *       those positions; keyed by the data file's id, one for each such file;
 *   <li>{@code through}: the snapshot the caller read the inlined data at to write these files.
 *       Rows inlined after it stay inlined (stock DuckLake's flush, overtaken by a concurrent
 *       insert, lands with the rows it read and leaves the newer ones inline); empty for the
 *       commit's premise, whatever it turns out to be.
 * </ul>
 */
public record InlineFlush(
    List<Part> parts, Map<Long, FlushDeleteFile> fileDeletes, OptionalLong through) {
  /** Copies the list and the map, the map ordered by data file id. */
  public InlineFlush {
    parts = List.copyOf(Objects.requireNonNull(parts, "parts"));
    Objects.requireNonNull(through, "through");
    TreeMap<Long, FlushDeleteFile> copy = new TreeMap<>(Long::compareUnsigned);
    copy.putAll(Objects.requireNonNull(fileDeletes, "fileDeletes"));
    fileDeletes = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * One data file of a flush.
   *
   * @param dataFile the file: the part's rows in row-id order, deleted ones included, with
   *     DuckLake's row-id column when their ids are not one run; its partition values are those of
   *     the rows (one per key of the table's partition spec) when the rows were inlined while the
   *     table was partitioned, and none otherwise
   * @param rowIds the ids of the inlined rows the file holds; empty for every inlined row, which
   *     only a flush of one part may say
   * @param rowDeletes the positions in the file of its rows deleted while inlined; present exactly
   *     when some were
   */
  public record Part(
      NewDataFile dataFile, Optional<List<Long>> rowIds, Optional<FlushDeleteFile> rowDeletes) {
    public Part {
      Objects.requireNonNull(dataFile, "dataFile");
      rowIds = Objects.requireNonNull(rowIds, "rowIds").map(List::copyOf);
      Objects.requireNonNull(rowDeletes, "rowDeletes");
    }

    /** A data file holding the inlined rows {@code rowIds}. */
    public static Part of(NewDataFile dataFile, List<Long> rowIds) {
      return new Part(dataFile, Optional.of(rowIds), Optional.empty());
    }

    /** This part with the delete file of its rows deleted while inlined. */
    public Part withRowDeletes(FlushDeleteFile deletes) {
      return new Part(dataFile, rowIds, Optional.of(deletes));
    }
  }

  /** A flush of every inlined row into {@code dataFile}. */
  public static InlineFlush of(NewDataFile dataFile) {
    return new InlineFlush(
        List.of(new Part(dataFile, Optional.empty(), Optional.empty())),
        Map.of(),
        OptionalLong.empty());
  }

  /** A flush of the inlined rows into the data files of {@code parts}. */
  public static InlineFlush ofParts(List<Part> parts) {
    return new InlineFlush(parts, Map.of(), OptionalLong.empty());
  }

  /** A flush of nothing but inlined deletions of data-file rows. */
  public static InlineFlush fileDeletesOnly() {
    return new InlineFlush(List.of(), Map.of(), OptionalLong.empty());
  }

  /**
   * This flush of one data file with the delete file of the rows deleted while inlined.
   *
   * @throws IllegalStateException if the flush has not exactly one part
   */
  public InlineFlush withRowDeletes(FlushDeleteFile deletes) {
    if (parts.size() != 1) {
      throw new IllegalStateException(
          "a flush of " + parts.size() + " data files: give each part its row delete file");
    }
    return new InlineFlush(List.of(parts.get(0).withRowDeletes(deletes)), fileDeletes, through);
  }

  /** This flush with one more part. */
  public InlineFlush withPart(Part part) {
    List<Part> more = new ArrayList<>(parts);
    more.add(part);
    return new InlineFlush(more, fileDeletes, through);
  }

  /** This flush with the delete file of data file {@code dataFileId}'s inline-deleted rows. */
  public InlineFlush withFileDeletes(long dataFileId, FlushDeleteFile deletes) {
    TreeMap<Long, FlushDeleteFile> more = new TreeMap<>(Long::compareUnsigned);
    more.putAll(fileDeletes);
    more.put(dataFileId, deletes);
    return new InlineFlush(parts, more, through);
  }

  /** This flush of the inlined data as snapshot {@code snapshotId} saw it. */
  public InlineFlush through(long snapshotId) {
    return new InlineFlush(parts, fileDeletes, OptionalLong.of(snapshotId));
  }
}
