package dev.moraine.duckdb.session;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.verb.StagedTranslation;
import dev.moraine.duckdb.export.DuckLakeExport;
import dev.moraine.duckdb.reference.DuckLakeExtension;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;

/**
 * DuckLake SQL, run by real DuckDB with the real DuckLake extension, committing into a Moraine lake
 * through the staged-row door ({@link Catalog#commitStaged}).
 *
 * <pre>{@code
 * try (DuckLakeSession sql = DuckLakeSession.open(catalog, stagingDir)) {
 *     sql.execute("INSERT INTO events SELECT * FROM read_parquet('batch.parquet')");
 *     sql.execute("DELETE FROM events WHERE day < DATE '2026-01-01'");
 *     sql.query("SELECT count(*) AS n FROM events");
 * }
 * }</pre>
 *
 * <p><b>How.</b> The session exports the lake's head into a staging DuckLake catalog (a DuckDB file
 * in {@code stagingDirectory}) and attaches it in an in-memory DuckDB as {@code lake}, the default
 * catalog, over the lake's own data path. DuckLake runs each statement there: it writes the Parquet
 * files into the lake's data path and commits its rows into the staging catalog. When a statement
 * (or a {@code COMMIT}) made a snapshot there, the rows it wrote ({@link CommitCapture}) go to
 * {@code commitStaged} with the exported snapshot as their base, and the staging catalog is
 * exported afresh from the lake. So every snapshot lands in the lake, and the staging catalog is
 * only ever a copy of it. Before a statement outside a transaction, a staging catalog the lake has
 * moved past (other writers) is exported afresh too, so reads see the lake's head. Rows authored
 * against a snapshot the lake has moved past meanwhile are rebased by the door (RFC 0006 §14), so
 * concurrent sessions on one catalog all land, sharing its batches.
 *
 * <p><b>What commits.</b> What the staged-row door takes (RFC 0006 §13): INSERTs, DELETEs and
 * UPDATEs, merges of files, CREATE and DROP of schemas, tables (also CREATE TABLE AS), views and
 * macros, column changes, SET and RESET PARTITIONED BY (a reset keeps no empty partitioning), SET
 * and RESET SORTED BY, COMMENT ON (not IS NULL), {@code ducklake_add_data_files}, options and
 * snapshot expiry and file cleanup (carried out by the lake's own). Data inlining is off in the
 * staging catalog unless the session is opened with a row limit ({@link #open(Catalog, Path,
 * long)}); then small INSERTs, and DELETEs and UPDATEs of inlined rows, land in the lake's inline
 * chunks, and a flush moves them into files. A statement DuckLake commits in a shape the door
 * refuses (COMMENT ON ... IS NULL, ...) throws the door's exception, unchecked as every Moraine
 * exception, and the lake is as it was; the Parquet files DuckLake wrote for it are left in the
 * data path for orphan cleanup. A {@code CommitConflictException} says the lake moved in a way the
 * statement cannot follow: the staging catalog is fresh again, and running the statement again
 * re-drives it.
 *
 * <p><b>Transactions.</b> {@code BEGIN} (or {@code BEGIN TRANSACTION}) ... {@code COMMIT} lands as
 * one snapshot, as in DuckLake. The session recognises these statements by their first word, to
 * keep the staging catalog in place while a transaction is open.
 *
 * <p><b>Cost.</b> Each commit exports the catalog afresh, so a commit costs work in proportion to
 * the catalog's size on top of DuckLake's own: suited to a catalog of many rows per table rather
 * than very many tables.
 *
 * <p>Thread safety: a session is one DuckDB connection; its methods are synchronized, and
 * statements run one at a time. Use one session per thread for concurrency.
 */
public final class DuckLakeSession implements AutoCloseable {
  /** The alias DuckLake's catalog is attached under, and its metadata catalog's. */
  private static final String ALIAS = "lake";

  private static final String METADATA = "__ducklake_metadata_" + ALIAS;

  private final Catalog catalog;
  private final Path directory;
  private final Connection duckdb;
  private final List<Long> landed = new ArrayList<>();

  /** The staging catalog file of the present export; null before the first and after close. */
  private Path file;

  /** The snapshot the staging catalog was exported at: the base of its next commit. */
  private long base;

  /** The staging catalog's rows right after the export. */
  private CommitCapture.Rows exported;

  private boolean inTransaction;
  private boolean closed;

  /** Why the session cannot go on, once it cannot; null while it can. */
  private String broken;

  /** Whether the last commit handed over may be re-driven by running its statement again. */
  private boolean redrivable;

  /** How many times a statement runs before a lost race of its schema change is thrown. */
  private static final int REDRIVES = 5;

  /** The staging catalog's {@code DATA_INLINING_ROW_LIMIT}. */
  private final long inliningRowLimit;

  private DuckLakeSession(
      Catalog catalog, Path directory, Connection duckdb, long inliningRowLimit) {
    this.catalog = catalog;
    this.directory = directory;
    this.duckdb = duckdb;
    this.inliningRowLimit = inliningRowLimit;
  }

  /**
   * Opens a session on {@code catalog}, keeping its staging catalog in {@code stagingDirectory}
   * (created if absent; the session's files there are its own, and removed on close).
   *
   * @throws SQLException if DuckDB refuses to start or attach
   * @throws IllegalStateException if the DuckLake extension is not found ({@link
   *     DuckLakeExtension#locate})
   * @throws InvalidArgumentException if the lake records no data path, where DuckLake would write
   */
  public static DuckLakeSession open(Catalog catalog, Path stagingDirectory) throws SQLException {
    return open(catalog, stagingDirectory, 0);
  }

  /**
   * Opens a session as {@link #open(Catalog, Path)} does, in which DuckLake inlines an INSERT of at
   * most {@code dataInliningRowLimit} rows into its inlined-data tables instead of writing a
   * Parquet file (its {@code DATA_INLINING_ROW_LIMIT}; 0 turns inlining off). Inlined rows, their
   * deletions and updates land in the lake's inline chunks, and {@code ducklake_flush_inlined_data}
   * moves them into files.
   *
   * @throws InvalidArgumentException if {@code dataInliningRowLimit} is negative
   */
  public static DuckLakeSession open(
      Catalog catalog, Path stagingDirectory, long dataInliningRowLimit) throws SQLException {
    Objects.requireNonNull(catalog, "catalog");
    if (dataInliningRowLimit < 0) {
      throw new InvalidArgumentException(
          "the data inlining row limit is " + dataInliningRowLimit + "; it must not be negative");
    }
    Objects.requireNonNull(stagingDirectory, "stagingDirectory");
    try {
      Files.createDirectories(stagingDirectory);
    } catch (IOException e) {
      throw new SQLException("cannot create " + stagingDirectory, e);
    }
    Properties props = new Properties();
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
    DuckLakeSession session =
        new DuckLakeSession(catalog, stagingDirectory.toAbsolutePath(), c, dataInliningRowLimit);
    try {
      String version;
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT version()")) {
        rs.next();
        version = rs.getString(1);
      }
      session.run("LOAD " + literal(DuckLakeExtension.locate(version).toString()));
      session.refresh();
    } catch (SQLException | RuntimeException e) {
      session.close();
      throw e;
    }
    return session;
  }

  /**
   * Runs one statement. If it committed a snapshot (an auto-committed write, or a {@code COMMIT}),
   * that snapshot lands in the lake before this returns.
   *
   * @throws SQLException if DuckDB or DuckLake refuse the statement; the lake is as it was
   * @throws dev.moraine.core.catalog.MoraineException what {@code commitStaged} throws for the
   *     commit the statement made (a conflict, a shape the door does not take, an unknown outcome,
   *     ...); the staging catalog is exported afresh from the lake either way
   */
  public synchronized void execute(String sql) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      String word = before(sql);
      run(sql);
      try {
        after(word);
        return;
      } catch (CommitConflictException lost) {
        // A schema change the lake moved past cannot be rebased: DuckLake re-drives such a
        // commit after a fresh read, and so does the session, for a statement that wrote no
        // files (its re-run costs nothing but the statement). The staging catalog is fresh
        // already, and the lake's other commits yield to the re-drive a quarter second.
        if (!redrivable || attempt >= REDRIVES) {
          throw lost;
        }
      }
    }
  }

  /** Runs a query and returns its rows, each a map from column label to value, in order. */
  public synchronized List<Map<String, Object>> query(String sql) throws SQLException {
    String word = before(sql);
    List<Map<String, Object>> out;
    try (Statement st = duckdb.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      out = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnLabel(i), rs.getObject(i));
        }
        out.add(Collections.unmodifiableMap(row));
      }
    }
    after(word);
    return Collections.unmodifiableList(out);
  }

  /**
   * What {@code commitStaged} answered for each of this session's commits, in order: the snapshot
   * it landed as, or the head it found for a commit that mints none (options, expiry, cleanup).
   */
  public synchronized List<Long> landedSnapshots() {
    return List.copyOf(landed);
  }

  /** The lake snapshot the staging catalog stands at. */
  public synchronized long stagingSnapshot() {
    return base;
  }

  /** Checks the statement and readies the staging catalog; returns its first keyword. */
  private String before(String sql) throws SQLException {
    if (closed || broken != null) {
      throw new SQLException(
          closed ? "the session is closed" : "the session is broken (" + broken + "); close it");
    }
    String word = SessionStatements.check(sql);
    if (inTransaction && SessionStatements.runsMaintenance(sql)) {
      // DuckLake deletes the files a cleanup names at once, not at COMMIT: inside a transaction
      // the lake could still refuse the commit (with its expiry, say) after its files are gone.
      throw new SQLException(
          "snapshot expiry and file cleanup run in a statement of their own, outside BEGIN ..."
              + " COMMIT: "
              + sql);
    }
    if (!inTransaction && catalog.head().snapshotId() != base) {
      refresh();
    }
    if (word.equals("BEGIN") || word.equals("START")) {
      inTransaction = true;
    }
    return word;
  }

  /**
   * After a statement DuckDB ran: hands the commit it made, if any, to the lake, and exports the
   * lake afresh. The commit's own refusal is thrown as it is; a failure to export afresh after it
   * breaks the session, with what became of the commit in the message.
   */
  private void after(String word) throws SQLException {
    if (SessionStatements.controlsTransaction(word)
        && !word.equals("BEGIN")
        && !word.equals("START")) {
      inTransaction = false;
    }
    if (inTransaction) {
      return;
    }
    // A commit made a snapshot, or changed options (set_option), expired snapshots or cleaned up
    // scheduled files without one.
    if (stagingHead() == base
        && !optionsChanged()
        && !fewerRows("ducklake_snapshot")
        && !fewerRows("ducklake_files_scheduled_for_deletion")) {
      return;
    }
    RuntimeException refused = null;
    Long landedAs = null;
    redrivable = false;
    try {
      StagedRows rows = CommitCapture.between(base, exported, CommitCapture.read(duckdb, METADATA));
      redrivable =
          !SessionStatements.controlsTransaction(word)
              && StagedTranslation.changesShape(rows)
              && rows.ops().stream()
                  .noneMatch(
                      op ->
                          op instanceof StagedRows.Insert
                              && (op.row() instanceof DataFileRow
                                  || op.row() instanceof DeleteFileRow));
      landedAs = catalog.commitStaged(rows);
      landed.add(landedAs);
    } catch (RuntimeException e) {
      refused = e;
    }
    try {
      refresh();
    } catch (SQLException | RuntimeException e) {
      broken =
          landedAs != null
              ? "the commit landed as snapshot "
                  + landedAs
                  + " but the lake could not be exported"
                  + " afresh"
              : "the lake could not be exported afresh";
      if (refused != null) {
        refused.addSuppressed(e);
        throw refused;
      }
      throw new SQLException(broken + ": " + e.getMessage(), e);
    }
    if (refused != null) {
      throw refused;
    }
  }

  /** Exports the lake's head into a new staging catalog file and attaches it as the session's. */
  private void refresh() throws SQLException {
    detach();
    CatalogSnapshot head = catalog.snapshot();
    String dataPath =
        head.dataPath()
            .orElseThrow(
                () ->
                    new InvalidArgumentException(
                        "the lake records no data path, where DuckLake would write its files"));
    Path next = directory.resolve("staging-" + UUID.randomUUID() + ".ducklake");
    try {
      DuckLakeExport.export(catalog, head, next);
      run(
          "ATTACH "
              + literal("ducklake:" + next)
              + " AS "
              + ALIAS
              + " (DATA_PATH "
              + literal(dataPath)
              + ", DATA_INLINING_ROW_LIMIT "
              + inliningRowLimit
              + ")");
    } catch (SQLException | RuntimeException e) {
      deleteQuietly(next);
      deleteQuietly(next.resolveSibling(next.getFileName() + ".wal"));
      throw e;
    }
    file = next;
    run("USE " + ALIAS);
    base = head.snapshotId();
    exported = CommitCapture.read(duckdb, METADATA);
    if (stagingHead() != base) {
      throw new IllegalStateException(
          "the staging catalog stands at snapshot " + stagingHead() + ", not at " + base);
    }
  }

  private void detach() throws SQLException {
    if (file == null) {
      return;
    }
    run("USE memory");
    run("DETACH DATABASE IF EXISTS " + ALIAS);
    deleteQuietly(file);
    deleteQuietly(file.resolveSibling(file.getFileName() + ".wal"));
    file = null;
  }

  /** Whether {@code ducklake_metadata} differs from the export's: a set_option mints nothing. */
  private boolean optionsChanged() throws SQLException {
    List<Map<String, Object>> now =
        CommitCapture.rows(duckdb, "SELECT * FROM " + METADATA + ".ducklake_metadata");
    return !new HashSet<>(now).equals(new HashSet<>(exported.byTable().get("ducklake_metadata")));
  }

  /**
   * Whether the staging catalog's {@code table} holds fewer rows than its export: an expiry ({@code
   * ducklake_snapshot}) or a file cleanup ({@code ducklake_files_scheduled_for_deletion}) ran.
   */
  private boolean fewerRows(String table) throws SQLException {
    try (Statement st = duckdb.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM " + METADATA + "." + table)) {
      rs.next();
      return rs.getLong(1) < exported.byTable().get(table).size();
    }
  }

  private long stagingHead() throws SQLException {
    try (Statement st = duckdb.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT max(snapshot_id) FROM " + METADATA + ".ducklake_snapshot")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void run(String sql) throws SQLException {
    try (Statement st = duckdb.createStatement()) {
      st.execute(sql);
    }
  }

  private static String literal(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // A staging file left behind holds nothing the lake needs.
    }
  }

  /** Rolls back an open transaction, detaches and removes the staging catalog, closes DuckDB. */
  @Override
  public synchronized void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (inTransaction) {
        try {
          run("ROLLBACK");
        } catch (SQLException alreadyOver) {
          // DuckDB ended it already (an error aborts a transaction): nothing to roll back.
        }
      }
      detach();
    } finally {
      duckdb.close();
    }
  }
}
