package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a flush of inlined data registered.
 *
 * @param dataFiles the data files now holding the flushed rows, in the order of the flush's parts;
 *     none when no rows were inlined
 * @param fileDeleteFileIds for each data file whose inline deletions were flushed, the id of its
 *     new delete file
 */
public record FlushedInline(List<DataFile> dataFiles, Map<Long, Long> fileDeleteFileIds) {
  public FlushedInline {
    dataFiles = List.copyOf(dataFiles);
    fileDeleteFileIds = Map.copyOf(fileDeleteFileIds);
  }

  /**
   * One data file of the flush.
   *
   * @param dataFileId its id
   * @param rowDeleteFileId the delete file of its rows deleted while inlined; empty when none were
   * @param rowIds the ids of the rows it holds (they keep the ids they were inlined under), deleted
   *     ones included, ascending
   * @param deletedRowIds the ids of the rows its delete file names, ascending
   */
  public record DataFile(
      long dataFileId, OptionalLong rowDeleteFileId, List<Long> rowIds, List<Long> deletedRowIds) {
    public DataFile {
      rowIds = List.copyOf(rowIds);
      deletedRowIds = List.copyOf(deletedRowIds);
    }
  }
}
