package dev.moraine.duckdb.export;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.rows.DuckDbType;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Writes a snapshot of a Moraine lake as a stock DuckLake 1.0 catalog in a DuckDB database file,
 * which DuckDB then attaches with its DuckLake extension:
 *
 * <pre>{@code
 * ATTACH 'ducklake:/path/lake.ducklake' AS lake (READ_ONLY);
 * SELECT count(*) FROM lake.main.events;
 * SELECT * FROM lake.main.events AT (VERSION => 3);
 * }</pre>
 *
 * <p>The file holds every {@code ducklake_*} row stock DuckLake would hold right after that
 * snapshot ({@link DuckLakeRowRenderer}): the whole snapshot log up to it, so DuckDB's own time
 * travel reaches every earlier snapshot, and the inlined-data tables with their rows.
 *
 * <p><b>Following a lake.</b> Exporting into a file an earlier export wrote brings it forward: the
 * file's snapshot log must be the start of the lake's (else {@link
 * ExportRefusedException.Reason#HISTORY_DISAGREES}), and only the rows that differ are written, in
 * one DuckDB transaction, so a DuckDB user sees the file at the old snapshot or the new one. A file
 * at a later snapshot than the one exported is refused ({@link
 * ExportRefusedException.Reason#FILE_AHEAD}); one at the same snapshot is left untouched.
 *
 * <p><b>Refusals and failures.</b> A file that is not a DuckDB database, or holds anything besides
 * a DuckLake catalog's tables, is refused ({@link ExportRefusedException.Reason#NOT_A_CATALOG}), as
 * is a file another process holds open. A new file is built under a temporary name beside it and
 * moved into place once complete, so no half-written catalog is ever visible. Every refusal and
 * failure leaves the file as it was.
 *
 * <p>The export reads the lake only; it writes the file through {@code duckdb_jdbc} without loading
 * any extension. It does not copy data files: the catalog's paths point into the data path the lake
 * records, which DuckLake takes from the catalog.
 */
public final class DuckLakeExport {
  private DuckLakeExport() {}

  /** {@link #export(ReadOnlyCatalog, CatalogSnapshot, Path, ExportProgress)} without progress. */
  public static ExportResult export(ReadOnlyCatalog catalog, CatalogSnapshot snapshot, Path file) {
    return export(catalog, snapshot, file, ExportProgress.NONE);
  }

  /**
   * Exports {@code snapshot}, read from {@code catalog}, into {@code file}.
   *
   * @param catalog the lake; an earlier export's last snapshot is read from it to check the file
   * @param snapshot the snapshot to export (the head, or any snapshot by id or time)
   * @param file the DuckDB database file: absent (it is created) or an earlier export of this lake
   * @param progress told as each table is written
   * @return what was written
   * @throws ExportRefusedException if the file cannot take the export; nothing was written
   * @throws ExportFailedException if writing failed; the file is as it was
   * @throws MoraineException what reading the lake throws ({@code StoreUnavailableException},
   *     {@code CorruptionException}, ...); the file is as it was
   */
  public static ExportResult export(
      ReadOnlyCatalog catalog, CatalogSnapshot snapshot, Path file, ExportProgress progress) {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(progress, "progress");
    Path target = file.toAbsolutePath();
    if (Files.exists(target)) {
      return bringForward(catalog, snapshot, target, progress);
    }
    return create(snapshot, target, progress);
  }

  private static ExportResult create(CatalogSnapshot snapshot, Path file, ExportProgress progress) {
    DuckLakeRowSet rows = DuckLakeRowRenderer.render(snapshot);
    Path parent = file.getParent();
    Path temporary =
        parent.resolve("." + file.getFileName() + ".export-" + UUID.randomUUID() + ".tmp");
    try {
      Files.createDirectories(parent);
      TableSync.Changes changes;
      try (Connection connection = CatalogFile.open(temporary)) {
        try (Statement st = connection.createStatement()) {
          for (TableDef def : DuckLakeTables.ALL) {
            st.execute(def.createSql());
          }
        }
        changes = write(connection, rows, List.of(), progress);
        try (Statement st = connection.createStatement()) {
          st.execute("CHECKPOINT");
        }
      }
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      return new ExportResult(
          file, OptionalLong.empty(), snapshot.snapshotId(), changes.inserted(), changes.deleted());
    } catch (SQLException | IOException | RuntimeException e) {
      deleteQuietly(temporary);
      deleteQuietly(temporary.resolveSibling(temporary.getFileName() + ".wal"));
      if (e instanceof MoraineException m) {
        throw m;
      }
      throw new ExportFailedException(file, String.valueOf(e.getMessage()), e);
    }
  }

  private static ExportResult bringForward(
      ReadOnlyCatalog catalog, CatalogSnapshot snapshot, Path file, ExportProgress progress) {
    try (Connection connection = CatalogFile.openExisting(file)) {
      List<String> inlinedInFile = CatalogFile.checkIsCatalog(connection, file);
      long last = CatalogFile.lastSnapshot(connection, file);
      if (Long.compareUnsigned(last, snapshot.snapshotId()) > 0) {
        throw new ExportRefusedException(
            file,
            ExportRefusedException.Reason.FILE_AHEAD,
            "the file holds snapshot "
                + Long.toUnsignedString(last)
                + ", later than the exported snapshot "
                + Long.toUnsignedString(snapshot.snapshotId()));
      }
      DuckLakeRowSet rows = DuckLakeRowRenderer.render(snapshot);
      checkHistory(connection, file, rows, last);
      if (last == snapshot.snapshotId()) {
        return new ExportResult(file, OptionalLong.of(last), last, 0, 0);
      }
      try (Statement st = connection.createStatement()) {
        st.execute("BEGIN TRANSACTION");
      }
      try {
        TableSync.Changes changes = write(connection, rows, inlinedInFile, progress);
        try (Statement st = connection.createStatement()) {
          st.execute("COMMIT");
        }
        return new ExportResult(
            file,
            OptionalLong.of(last),
            snapshot.snapshotId(),
            changes.inserted(),
            changes.deleted());
      } catch (SQLException | RuntimeException e) {
        try (Statement st = connection.createStatement()) {
          st.execute("ROLLBACK");
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        if (e instanceof MoraineException m) {
          throw m;
        }
        throw new ExportFailedException(file, String.valueOf(e.getMessage()), e);
      }
    } catch (SQLException e) {
      throw new ExportFailedException(file, String.valueOf(e.getMessage()), e);
    }
  }

  /**
   * The file's snapshot log, snapshots and their changes, must be the lake's up to {@code last}:
   * then it was exported from this lake and nothing rewrote its history since.
   */
  private static void checkHistory(Connection connection, Path file, DuckLakeRowSet rows, long last)
      throws SQLException {
    Map<Long, List<String>> lake = new LinkedHashMap<>();
    for (SnapshotRow r : rows.rows(SnapshotRow.DEF, SnapshotRow.class)) {
      if (Long.compareUnsigned(r.snapshotId(), last) <= 0) {
        lake.computeIfAbsent(r.snapshotId(), k -> new ArrayList<>()).add(CatalogFile.text(r));
      }
    }
    for (SnapshotChangesRow r : rows.rows(SnapshotChangesRow.DEF, SnapshotChangesRow.class)) {
      if (Long.compareUnsigned(r.snapshotId(), last) <= 0) {
        lake.computeIfAbsent(r.snapshotId(), k -> new ArrayList<>()).add(CatalogFile.text(r));
      }
    }
    Map<Long, List<String>> inFile = CatalogFile.snapshotLog(connection);
    if (!inFile.equals(lake)) {
      throw new ExportRefusedException(
          file,
          ExportRefusedException.Reason.HISTORY_DISAGREES,
          "its snapshot log up to snapshot "
              + Long.toUnsignedString(last)
              + " is not this lake's (first difference at snapshot "
              + CatalogFile.firstDifference(inFile, lake)
              + ")");
    }
  }

  /**
   * Brings every spec table and every inlined table of the file to {@code rows}: creates the
   * inlined tables the file lacks, drops those the rendering no longer has (a flush drops emptied
   * ones), and syncs the rest.
   */
  private static TableSync.Changes write(
      Connection connection,
      DuckLakeRowSet rows,
      List<String> inlinedInFile,
      ExportProgress progress)
      throws SQLException {
    int total = DuckLakeTables.ALL.size() + rows.inlinedTables().size();
    int done = 0;
    long inserted = 0;
    long deleted = 0;
    for (TableDef def : DuckLakeTables.ALL) {
      List<List<String>> literals = new ArrayList<>();
      for (DuckLakeRow row : rows.rows(def.name())) {
        List<String> cells = new ArrayList<>(row.values().size());
        for (Object v : row.values()) {
          cells.add(SqlLiterals.of(v));
        }
        literals.add(cells);
      }
      TableSync.Changes c = TableSync.sync(connection, def.name(), def.columnNames(), literals);
      inserted += c.inserted();
      deleted += c.deleted();
      progress.tableDone(def.name(), ++done, total);
    }
    List<String> kept = new ArrayList<>();
    for (InlinedTable t : rows.inlinedTables()) {
      kept.add(t.name());
      if (!inlinedInFile.contains(t.name())) {
        try (Statement st = connection.createStatement()) {
          st.execute(createSql(t));
        }
      }
      List<List<String>> literals = new ArrayList<>(t.rows().size());
      for (List<Object> row : t.rows()) {
        List<String> cells = new ArrayList<>(row.size());
        for (int i = 0; i < row.size(); i++) {
          cells.add(t.columnTypes().get(i).literal(row.get(i)));
        }
        literals.add(cells);
      }
      TableSync.Changes c = TableSync.sync(connection, t.name(), t.columns(), literals);
      inserted += c.inserted();
      deleted += c.deleted();
      progress.tableDone(t.name(), ++done, total);
    }
    for (String name : inlinedInFile) {
      if (!kept.contains(name)) {
        try (Statement st = connection.createStatement()) {
          st.execute("DROP TABLE main." + SqlLiterals.identifier(name));
        }
      }
    }
    return new TableSync.Changes(inserted, deleted);
  }

  /** The CREATE TABLE of one inlined table, its columns typed as stock DuckLake types them. */
  static String createSql(InlinedTable t) {
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < t.columns().size(); i++) {
      DuckDbType type = t.columnTypes().get(i);
      columns.add(SqlLiterals.identifier(t.columns().get(i)) + ' ' + type.ddl());
    }
    return "CREATE TABLE main."
        + SqlLiterals.identifier(t.name())
        + '('
        + String.join(", ", columns)
        + ')';
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort: a temporary file left behind is named as one and holds nothing visible
    }
  }
}
