package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.index.IndexKeyValue;
import java.util.List;

/**
 * Reads the index values of data files' rows, for the verbs that keep the equality indexes of a
 * table whose rows are in data files (RFC 0002 §10.2): registering a data file, registering a
 * delete file, flushing inlined rows into a file, and deleting or updating a data-file row inline.
 * The core reads no Parquet; a writer catalog given one of these ({@link
 * CatalogOptions#withFileIndexValues}) reads the indexed columns of the files through it, as the
 * Rust crate reads them from the files; without one, those verbs are refused on an indexed table
 * ({@link IndexedTableException}). moraine-parquet's {@code LocalFileIndexValues} reads local
 * Parquet files.
 *
 * <p>Called on the thread running the commit's closure, once per verb call that needs it; it must
 * be safe to call from the catalog's commit thread while other threads read the catalog. A call
 * that throws makes the verb throw it, staging nothing.
 */
public interface FileIndexValues {
  /**
   * One row of a data file: its position in the file (from 0), its row id, and the index values of
   * the columns asked for, in their order (null for a NULL), in the form of {@link IndexKeyValue}
   * the crate reads them as.
   */
  record Row(long position, long rowId, List<IndexKeyValue> values) {
    public Row {
      values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }
  }

  /**
   * The rows of data file {@code file} (of a table of {@code premise}; registered at {@code
   * premise} or by the commit being staged, whose record it is) at {@code positions}, or every row
   * when {@code positions} is null, in position order, with the values of the top-level {@code
   * columns}.
   *
   * @throws RuntimeException if the file cannot be read, or its rows cannot give the values the
   *     crate would read (the verb then throws it and stages nothing)
   */
  List<Row> rows(
      CatalogSnapshot premise, DataFileInfo file, List<ColumnInfo> columns, long[] positions);

  /**
   * The positions in its data file that delete file {@code file} deletes, ascending.
   *
   * @throws RuntimeException as {@link #rows}
   */
  long[] deletedPositions(CatalogSnapshot premise, DeleteFileInfo file);
}
