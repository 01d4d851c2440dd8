package dev.moraine.parquet;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.FileMerger;
import dev.moraine.core.catalog.FileRewriter;
import dev.moraine.core.catalog.InlineFlusher;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/**
 * The maintenance pass's {@link InlineFlusher}, {@link FileMerger} and {@link FileRewriter} for a
 * lake whose data path is a local directory: each table's inlined data is flushed with {@link
 * ParquetInlineFlush#write}, each run of small files is merged with {@link
 * ParquetCompaction#merge}, and each group of files with deleted rows rewritten with {@link
 * ParquetCompaction#rewrite}, into new files {@code ducklake-<uuid>.parquet} in the table's
 * directory (the schema's and the table's paths resolved under the data path while they are
 * relative). Reads the catalog's head for the table's columns and paths. Safe to share: it keeps no
 * state between calls.
 */
public final class LocalFileMerger implements InlineFlusher, FileMerger, FileRewriter {
  private final ReadOnlyCatalog catalog;
  private final Path dataPath;

  private LocalFileMerger(ReadOnlyCatalog catalog, Path dataPath) {
    this.catalog = catalog;
    this.dataPath = dataPath;
  }

  /** A merger writing under {@code dataPath}, the local directory of the catalog's data path. */
  public static LocalFileMerger of(ReadOnlyCatalog catalog, Path dataPath) {
    return new LocalFileMerger(catalog, dataPath);
  }

  /** The local directory of table {@code tableId} at {@code snapshot}. */
  public Path tableDirectory(CatalogSnapshot snapshot, long tableId) {
    return tableDirectory(dataPath, snapshot, tableId);
  }

  /** The local directory of table {@code tableId} at {@code snapshot}, under {@code dataPath}. */
  static Path tableDirectory(Path dataPath, CatalogSnapshot snapshot, long tableId) {
    TableInfo table = snapshot.table(tableId).orElseThrow();
    SchemaInfo schema = snapshot.schema(table.schemaId()).orElseThrow();
    Path schemaDir =
        schema.pathIsRelative() ? dataPath.resolve(schema.path()) : Path.of(schema.path());
    return table.pathIsRelative() ? schemaDir.resolve(table.path()) : Path.of(table.path());
  }

  /**
   * @return the flush's files, or empty for a table this flusher does not take: partitioned, with
   *     rows inlined under several schema versions, or with an inline update's second row version
   * @throws UncheckedIOException if a file cannot be written; the pass records the step as failed
   */
  @Override
  public Optional<InlineFlush> flush(CatalogSnapshot snapshot, long tableId) {
    try {
      return ParquetInlineFlush.write(snapshot, tableId, tableDirectory(snapshot, tableId));
    } catch (IllegalArgumentException notThisTable) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @throws UncheckedIOException if an input cannot be read or the output written; the pass records
   *     the step as failed
   */
  @Override
  public Optional<NewDataFile> merge(long tableId, List<DataFileInfo> inputs) {
    return write(tableId, inputs, true);
  }

  /**
   * @return the rewritten file, or empty for inputs this rewriter does not take: written under
   *     different schemas, encrypted, or no longer as the pass chose them
   * @throws UncheckedIOException if an input or a delete file cannot be read or the output written;
   *     the pass records the step as failed
   */
  @Override
  public Optional<NewDataFile> rewrite(long tableId, List<DataFileInfo> inputs) {
    return write(tableId, inputs, false);
  }

  private Optional<NewDataFile> write(long tableId, List<DataFileInfo> inputs, boolean merge) {
    CatalogSnapshot head = catalog.snapshot();
    Path dir = tableDirectory(head, tableId);
    String name = "ducklake-" + UUID.randomUUID() + ".parquet";
    try {
      List<CompactionInput> in =
          CompactionInput.of(
              head, tableId, inputs.stream().map(DataFileInfo::dataFileId).toList(), dir);
      return Optional.of(
          merge
              ? ParquetCompaction.merge(head.columns(tableId), in, dir.resolve(name), name)
              : ParquetCompaction.rewrite(head.columns(tableId), in, dir.resolve(name), name));
    } catch (IllegalArgumentException | NoSuchElementException notThisRun) {
      // Inputs this merger does not take (written under different schemas, encrypted, given
      // deletions or merged away since the pass chose them) are left as they are; the pass goes on
      // with its other runs.
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
