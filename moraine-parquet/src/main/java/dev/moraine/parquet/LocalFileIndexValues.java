package dev.moraine.parquet;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.FileIndexValues;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The {@link FileIndexValues} of a lake whose data path is a local directory: a data file's index
 * values are read with {@link ParquetIndexValues} (the indexed columns by field id, row ids from
 * the row-id column or {@code row_id_start}, as the Rust crate reads them), a delete file's
 * positions from its {@code pos} column. A path registered relative to its table resolves under the
 * table's directory (the schema's and the table's paths resolved under the data path while they are
 * relative); an absolute one, with or without {@code file://}, is taken as it is. Give it to the
 * writer catalog with {@code CatalogOptions.withFileIndexValues}. Safe to share: it keeps no state
 * between calls.
 */
public final class LocalFileIndexValues implements FileIndexValues {
  private final Path dataPath;

  private LocalFileIndexValues(Path dataPath) {
    this.dataPath = dataPath;
  }

  /** The index values of the files under {@code dataPath}, the local directory of the data path. */
  public static LocalFileIndexValues of(Path dataPath) {
    return new LocalFileIndexValues(dataPath);
  }

  /**
   * @throws UncheckedIOException if the file cannot be read
   * @throws InvalidArgumentException if its rows cannot give the values the crate would read (no
   *     field ids; no row ids and no {@code row_id_start}; a column it lacks whose initial default
   *     is not NULL; a column of a type no index takes)
   */
  @Override
  public List<Row> rows(
      CatalogSnapshot premise, DataFileInfo file, List<ColumnInfo> columns, long[] positions) {
    Path path = local(premise, file.tableId(), file.path(), file.pathIsRelative());
    TreeSet<Long> wanted = new TreeSet<>();
    if (positions != null) {
      Arrays.stream(positions).forEach(wanted::add);
    }
    try {
      List<Row> out = new ArrayList<>();
      for (ParquetIndexValues.Row r :
          ParquetIndexValues.read(
              path, file, columns, p -> positions == null || wanted.contains(p))) {
        out.add(new Row(r.position(), r.rowId(), r.values()));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("reading the index values of " + path, e);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("data file " + file.path() + ": " + e.getMessage());
    }
  }

  /**
   * @throws UncheckedIOException if the file cannot be read
   */
  @Override
  public long[] deletedPositions(CatalogSnapshot premise, DeleteFileInfo file) {
    Path path = local(premise, file.tableId(), file.path(), file.pathIsRelative());
    try {
      return ParquetRows.deletePositions(path).stream()
          .mapToLong(Long::longValue)
          .sorted()
          .distinct()
          .toArray();
    } catch (IOException e) {
      throw new UncheckedIOException("reading the positions of delete file " + path, e);
    }
  }

  private Path local(CatalogSnapshot premise, long tableId, String path, boolean relative) {
    if (!relative) {
      return CompactionInput.localPath(path);
    }
    return LocalFileMerger.tableDirectory(dataPath, premise, tableId).resolve(path);
  }
}
