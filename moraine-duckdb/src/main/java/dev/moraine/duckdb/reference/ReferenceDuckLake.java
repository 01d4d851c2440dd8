package dev.moraine.duckdb.reference;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.duckdb.DuckDBConnection;

/**
 * A stock DuckLake, run by real DuckDB with the real DuckLake extension: the reference that
 * Moraine's catalog is compared with.
 *
 * <p>It opens one in-memory DuckDB instance through {@code duckdb_jdbc}, loads the DuckLake
 * extension from a local file (never from the network: automatic install and load of known
 * extensions is off), and attaches a DuckLake whose metadata catalog is a DuckDB file:
 *
 * <pre>{@code ATTACH 'ducklake:<dir>/meta.ducklake' AS lake (DATA_PATH '<dir>/data/')}</pre>
 *
 * <p>{@link #session()} opens further connections on the same instance, each with its own
 * transaction, for overlapping commits. The metadata catalog itself is attached by DuckLake under
 * the alias {@code __ducklake_metadata_<alias>}; {@link #snapshots()} and {@link #rows(String)}
 * read the {@code ducklake_*} tables from it through a separate auto-commit connection.
 *
 * <pre>{@code
 * try (ReferenceDuckLake lake = ReferenceDuckLake.builder(dir).dataInliningRowLimit(0).open()) {
 *     lake.execute("CREATE TABLE t (i INTEGER)");
 *     lake.snapshots();                 // snapshot 0 and snapshot 1
 *     lake.rows("ducklake_table");      // one row
 * }
 * }</pre>
 */
public final class ReferenceDuckLake implements AutoCloseable {

  /** The metadata tables of DuckLake spec 1.0, in the order the spec lists them. */
  public static final List<String> SPEC_TABLES =
      List.of(
          "ducklake_metadata",
          "ducklake_snapshot",
          "ducklake_snapshot_changes",
          "ducklake_schema",
          "ducklake_table",
          "ducklake_view",
          "ducklake_tag",
          "ducklake_column_tag",
          "ducklake_data_file",
          "ducklake_file_column_stats",
          "ducklake_file_variant_stats",
          "ducklake_delete_file",
          "ducklake_column",
          "ducklake_table_stats",
          "ducklake_table_column_stats",
          "ducklake_partition_info",
          "ducklake_partition_column",
          "ducklake_file_partition_value",
          "ducklake_files_scheduled_for_deletion",
          "ducklake_inlined_data_tables",
          "ducklake_column_mapping",
          "ducklake_name_mapping",
          "ducklake_schema_versions",
          "ducklake_macro",
          "ducklake_macro_impl",
          "ducklake_macro_parameters",
          "ducklake_sort_info",
          "ducklake_sort_expression");

  private static final Pattern SIMPLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Path directory;
  private final String alias;
  private final Path extension;
  private final String duckdbVersion;
  private final DuckDBConnection root;
  private final ReferenceSession admin;
  private final List<ReferenceSession> sessions = new ArrayList<>();

  private ReferenceDuckLake(Builder b) throws SQLException {
    this.directory = b.directory.toAbsolutePath();
    this.alias = b.alias;
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new SQLException("cannot create " + directory, e);
    }
    Properties props = new Properties();
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    Connection connection = DriverManager.getConnection("jdbc:duckdb:", props);
    try {
      this.root = connection.unwrap(DuckDBConnection.class);
      this.duckdbVersion =
          String.valueOf(SqlRows.query(root, "SELECT version() AS v").get(0).get("v"));
      this.extension =
          b.extension != null
              ? b.extension.toAbsolutePath()
              : DuckLakeExtension.locate(duckdbVersion);
      SqlRows.execute(root, "LOAD " + SqlRows.literal(extension.toString()));
      for (Map.Entry<String, String> setting : b.settings.entrySet()) {
        SqlRows.execute(root, "SET GLOBAL " + setting.getKey() + " = " + setting.getValue());
      }
      SqlRows.execute(root, attachSql(b.attachOptions));
      this.admin = session();
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  private String attachSql(Map<String, String> options) {
    StringBuilder attach =
        new StringBuilder("ATTACH ")
            .append(SqlRows.literal("ducklake:" + metadataFile()))
            .append(" AS ")
            .append(SqlRows.identifier(alias))
            .append(" (DATA_PATH ")
            .append(SqlRows.literal(dataPath()));
    for (Map.Entry<String, String> option : options.entrySet()) {
      attach.append(", ").append(option.getKey()).append(' ').append(option.getValue());
    }
    return attach.append(')').toString();
  }

  /** Starts configuring a reference lake kept in {@code directory} (created if absent). */
  public static Builder builder(Path directory) {
    return new Builder(directory);
  }

  /** Opens a reference lake in {@code directory} with DuckLake's defaults. */
  public static ReferenceDuckLake open(Path directory) throws SQLException {
    return builder(directory).open();
  }

  /** Opens a new connection on this DuckDB instance whose default catalog is the lake. */
  public synchronized ReferenceSession session() throws SQLException {
    Connection connection = root.duplicate();
    try {
      SqlRows.execute(connection, "USE " + SqlRows.identifier(alias));
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    ReferenceSession session = new ReferenceSession(connection);
    sessions.add(session);
    return session;
  }

  /** Runs one auto-committed statement against the lake. */
  public void execute(String sql) throws SQLException {
    admin.execute(sql);
  }

  /** Runs auto-committed statements against the lake, in order. */
  public void executeAll(List<String> statements) throws SQLException {
    admin.executeAll(statements);
  }

  /** Runs a query on the lake (or any attached database, when qualified). */
  public List<Map<String, Object>> query(String sql) throws SQLException {
    return admin.query(sql);
  }

  /** Every snapshot of the lake in id order, with its changes_made. */
  public List<ReferenceSnapshot> snapshots() throws SQLException {
    List<ReferenceSnapshot> out = new ArrayList<>();
    String sql =
        "SELECT s.snapshot_id, s.schema_version, s.next_catalog_id, s.next_file_id,"
            + " c.changes_made, c.author, c.commit_message"
            + " FROM "
            + metadataTable("ducklake_snapshot")
            + " s"
            + " LEFT JOIN "
            + metadataTable("ducklake_snapshot_changes")
            + " c USING (snapshot_id)"
            + " ORDER BY s.snapshot_id";
    for (Map<String, Object> row : admin.query(sql)) {
      out.add(
          new ReferenceSnapshot(
              asLong(row.get("snapshot_id")),
              asLong(row.get("schema_version")),
              asLong(row.get("next_catalog_id")),
              asLong(row.get("next_file_id")),
              (String) row.get("changes_made"),
              (String) row.get("author"),
              (String) row.get("commit_message")));
    }
    return out;
  }

  /**
   * The change-set names DuckLake itself reports for one snapshot: the keys of the {@code changes}
   * map of its {@code ducklake_snapshots()} table function (for example {@code tables_created},
   * {@code tables_inserted_into}), parsed by DuckLake from the changes_made it wrote. Sorted; empty
   * for a snapshot that reports no change.
   */
  public List<String> reportedChangeKeys(long snapshotId) throws SQLException {
    List<String> keys = new ArrayList<>();
    String sql =
        "SELECT unnest(map_keys(changes)) AS change_key FROM ducklake_snapshots("
            + SqlRows.literal(alias)
            + ") WHERE snapshot_id = "
            + snapshotId
            + " ORDER BY change_key";
    for (Map<String, Object> row : admin.query(sql)) {
      keys.add((String) row.get("change_key"));
    }
    return keys;
  }

  /** The newest snapshot. */
  public ReferenceSnapshot latestSnapshot() throws SQLException {
    List<ReferenceSnapshot> all = snapshots();
    return all.get(all.size() - 1);
  }

  /**
   * Names of the tables in the metadata catalog, sorted: the spec's ducklake_* tables that exist,
   * plus the inlined-data and inlined-delete tables DuckLake created on demand. (DuckLake attaches
   * its metadata catalog as an internal database, which duckdb_tables() does not list, so the names
   * are probed.)
   */
  public List<String> metadataTables() throws SQLException {
    java.util.TreeSet<String> names = new java.util.TreeSet<>();
    for (String table : SPEC_TABLES) {
      if (metadataTableExists(table)) {
        names.add(table);
      }
    }
    if (names.contains("ducklake_inlined_data_tables")) {
      for (Map<String, Object> row :
          admin.query("SELECT table_name FROM " + metadataTable("ducklake_inlined_data_tables"))) {
        String name = (String) row.get("table_name");
        if (metadataTableExists(name)) {
          names.add(name);
        }
      }
    }
    for (Map<String, Object> row :
        admin.query("SELECT DISTINCT table_id FROM " + metadataTable("ducklake_table"))) {
      String name = "ducklake_inlined_delete_" + asLong(row.get("table_id"));
      if (metadataTableExists(name)) {
        names.add(name);
      }
    }
    return new ArrayList<>(names);
  }

  /** True when the metadata catalog holds a table of that name. */
  public boolean metadataTableExists(String table) throws SQLException {
    try {
      admin.query("SELECT * FROM " + metadataTable(table) + " LIMIT 0");
      return true;
    } catch (SQLException e) {
      if (e.getMessage() != null && e.getMessage().contains("does not exist")) {
        return false;
      }
      throw e;
    }
  }

  /** The columns of one metadata table in declaration order, as DuckDB describes them. */
  public List<MetadataColumn> describe(String table) throws SQLException {
    List<MetadataColumn> columns = new ArrayList<>();
    for (Map<String, Object> row : admin.query("DESCRIBE " + metadataTable(table))) {
      columns.add(
          new MetadataColumn(
              (String) row.get("column_name"),
              (String) row.get("column_type"),
              "YES".equals(row.get("null")),
              "PRI".equals(row.get("key"))));
    }
    return columns;
  }

  /** Every row of one metadata table, e.g. {@code rows("ducklake_column")}, in a stable order. */
  public List<Map<String, Object>> rows(String table) throws SQLException {
    return admin.query("SELECT * FROM " + metadataTable(table) + " ORDER BY ALL");
  }

  /**
   * Rows of a metadata table with {@code begin_snapshot = snapshotId}: what that snapshot wrote.
   */
  public List<Map<String, Object>> rowsBegunAt(String table, long snapshotId) throws SQLException {
    return admin.query(
        "SELECT * FROM "
            + metadataTable(table)
            + " WHERE begin_snapshot = "
            + snapshotId
            + " ORDER BY ALL");
  }

  /** Rows of a versioned metadata table live at {@code snapshotId} (begin &lt;= S &lt; end). */
  public List<Map<String, Object>> rowsVisibleAt(String table, long snapshotId)
      throws SQLException {
    return admin.query(
        "SELECT * FROM "
            + metadataTable(table)
            + " WHERE begin_snapshot <= "
            + snapshotId
            + " AND (end_snapshot IS NULL OR end_snapshot > "
            + snapshotId
            + ") ORDER BY ALL");
  }

  /** Fully qualified name of a metadata table, for hand-written queries. */
  public String metadataTable(String table) {
    if (!SIMPLE_NAME.matcher(table).matches()) {
      throw new IllegalArgumentException("not a metadata table name: " + table);
    }
    return SqlRows.identifier(metadataAlias()) + ".main." + SqlRows.identifier(table);
  }

  /** The alias under which DuckLake attached its metadata catalog. */
  public String metadataAlias() {
    return "__ducklake_metadata_" + alias;
  }

  /** The alias of the lake itself. */
  public String alias() {
    return alias;
  }

  /** The folder holding the metadata file and the data folder. */
  public Path directory() {
    return directory;
  }

  /** The DuckDB-file metadata catalog. */
  public Path metadataFile() {
    return directory.resolve("meta.ducklake");
  }

  /** The DATA_PATH given to ATTACH, ending in '/'. */
  public String dataPath() {
    return directory.resolve("data") + "/";
  }

  /** The extension file that was loaded. */
  public Path extension() {
    return extension;
  }

  /** DuckDB's version string, e.g. {@code v1.5.5}. */
  public String duckdbVersion() {
    return duckdbVersion;
  }

  @Override
  public synchronized void close() throws SQLException {
    SQLException first = null;
    for (ReferenceSession session : sessions) {
      try {
        session.close();
      } catch (SQLException e) {
        first = first == null ? e : first;
      }
    }
    sessions.clear();
    root.close();
    if (first != null) {
      throw first;
    }
  }

  private static long asLong(Object value) {
    return ((Number) value).longValue();
  }

  /** Options of a reference lake. */
  public static final class Builder {
    private final Path directory;
    private String alias = "lake";
    private Path extension;
    private final Map<String, String> attachOptions = new LinkedHashMap<>();
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder(Path directory) {
      this.directory = directory;
    }

    /**
     * The catalog alias (default {@code lake}); the metadata catalog becomes {@code
     * __ducklake_metadata_<alias>}.
     */
    public Builder alias(String alias) {
      if (!SIMPLE_NAME.matcher(alias).matches()) {
        throw new IllegalArgumentException("alias must be a simple identifier: " + alias);
      }
      this.alias = alias;
      return this;
    }

    /** Loads this extension file instead of the one {@link DuckLakeExtension#locate} finds. */
    public Builder extension(Path extension) {
      this.extension = extension;
      return this;
    }

    /** ATTACH option DATA_INLINING_ROW_LIMIT (0 turns inlining off; DuckLake's default is 10). */
    public Builder dataInliningRowLimit(long limit) {
      return attachOption("DATA_INLINING_ROW_LIMIT", Long.toString(limit));
    }

    /**
     * The data inlining row limit this lake attaches with: the ATTACH option's, else DuckLake's
     * default, 10. A Moraine catalog compared with this lake takes the same one ({@code
     * CatalogOptions.withDataInliningRowLimit}).
     */
    public long dataInliningRowLimit() {
      String limit = attachOptions.get("DATA_INLINING_ROW_LIMIT");
      return limit == null ? 10 : Long.parseLong(limit);
    }

    /**
     * Global setting ducklake_max_retry_count (DuckLake's default is 10). DuckLake checks for
     * conflicts only when it retries, and stops once attempt + 1 reaches this count: 2 gives
     * exactly one checked retry, so a conflicting commit fails fast and a compatible one lands; 0
     * or 1 make every commit that lost a race fail on the snapshot primary key, compatible or not.
     */
    public Builder maxRetryCount(long count) {
      return setting("ducklake_max_retry_count", Long.toString(count));
    }

    /** Global setting ducklake_retry_wait_ms (DuckLake's default is 100). */
    public Builder retryWaitMillis(long millis) {
      return setting("ducklake_retry_wait_ms", Long.toString(millis));
    }

    /**
     * Any further ATTACH option, given as SQL (e.g. {@code attachOption("METADATA_CATALOG",
     * "'m'")}).
     */
    public Builder attachOption(String name, String sqlValue) {
      if (!SIMPLE_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("not an option name: " + name);
      }
      attachOptions.put(name, sqlValue);
      return this;
    }

    /** Any DuckDB setting applied with SET GLOBAL before ATTACH, given as SQL. */
    public Builder setting(String name, String sqlValue) {
      if (!SIMPLE_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("not a setting name: " + name);
      }
      settings.put(name, sqlValue);
      return this;
    }

    /** Starts DuckDB, loads the extension and attaches the lake. */
    public ReferenceDuckLake open() throws SQLException {
      return new ReferenceDuckLake(this);
    }
  }
}
