package dev.moraine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.duckdb.DuckDBConnection;

/**
 * Stock DuckLake as its users run it: real DuckDB ({@code duckdb_jdbc}) with the real DuckLake
 * extension, appenders committing small inserts into one shared table, each insert an auto-commit
 * transaction that DuckLake inlines into its metadata catalog (the insert has no more rows than
 * {@code DATA_INLINING_ROW_LIMIT}), so every commit is a catalog-only commit.
 *
 * <p>Two metadata catalogs:
 *
 * <ul>
 *   <li>{@link Kind#DUCKDB_FILE}: a DuckDB database file. DuckDB lets one process open such a file
 *       for writing, so the appenders are connections of one DuckDB instance, each with its own
 *       DuckLake transaction; DuckDB writes and fsyncs its write-ahead log at each commit.
 *   <li>{@link Kind#POSTGRES}: a PostgreSQL database reached through DuckDB's postgres extension.
 *       Each appender is a DuckDB instance of its own, as separate writer processes are: its own
 *       DuckLake catalog, its own connections to the server.
 * </ul>
 *
 * <p>DuckLake's retry settings stay at their defaults. Its commit loop retries a commit that lost
 * the race for the next snapshot id, and runs its conflict check (the query over {@code
 * ducklake_snapshot_changes}) only on a retry; with DuckDB's logging of DuckLake's metadata queries
 * on, {@link #retriesBetween} counts those checks, one per retry.
 */
final class StockDuckLake implements AutoCloseable {
  /** Which metadata catalog. */
  enum Kind {
    DUCKDB_FILE,
    POSTGRES
  }

  /** The shared table every appender inserts into. */
  static final String TABLE = "appends";

  /** The inline row limit given to ATTACH (DuckLake's default); appends stay at or below it. */
  static final int INLINING_ROW_LIMIT = 10;

  /** The text of the conflict-check query DuckLake runs once per retry, and only then. */
  private static final String CONFLICT_CHECK = "STRING_AGG(changes_made";

  private final Kind kind;
  private final List<DuckDBConnection> instances = new ArrayList<>();
  private final List<Connection> appenders = new ArrayList<>();
  private final Connection admin;

  private StockDuckLake(Kind kind, Connection admin) {
    this.kind = kind;
    this.admin = admin;
  }

  /**
   * Creates a lake with its table and opens {@code count} appenders on it.
   *
   * @param dir a fresh directory: the data path, and for a DuckDB-file catalog the catalog file
   * @param postgres the libpq connection string of an empty database (for {@link Kind#POSTGRES})
   * @param ducklake the DuckLake extension file
   * @param postgresExtension the postgres_scanner extension file (for {@link Kind#POSTGRES})
   */
  static StockDuckLake open(
      Kind kind, Path dir, String postgres, Path ducklake, Path postgresExtension, int count)
      throws SQLException {
    try {
      Files.createDirectories(dir.resolve("data"));
    } catch (java.io.IOException e) {
      throw new SQLException("cannot create " + dir, e);
    }
    String target =
        kind == Kind.DUCKDB_FILE
            ? "ducklake:" + dir.resolve("meta.ducklake")
            : "ducklake:postgres:" + postgres;
    String attach =
        "ATTACH "
            + literal(target)
            + " AS lake (DATA_PATH "
            + literal(dir.resolve("data") + "/")
            + ", DATA_INLINING_ROW_LIMIT "
            + INLINING_ROW_LIMIT
            + ")";
    DuckDBConnection first = instance(ducklake, kind == Kind.POSTGRES ? postgresExtension : null);
    StockDuckLake lake = new StockDuckLake(kind, first.duplicate());
    lake.instances.add(first);
    try {
      execute(first, attach);
      execute(
          lake.admin,
          "CREATE TABLE lake." + TABLE + " (appender INTEGER, seq BIGINT, note VARCHAR)");
      for (int i = 0; i < count; i++) {
        Connection c;
        if (kind == Kind.DUCKDB_FILE || i == 0) {
          c = first.duplicate();
        } else {
          DuckDBConnection another = instance(ducklake, postgresExtension);
          lake.instances.add(another);
          execute(another, attach);
          c = another.duplicate();
        }
        lake.appenders.add(c);
        execute(c, "USE lake");
      }
      return lake;
    } catch (SQLException | RuntimeException e) {
      lake.close();
      throw e;
    }
  }

  /** A new in-memory DuckDB instance with DuckLake (and postgres_scanner) loaded, logging on. */
  private static DuckDBConnection instance(Path ducklake, Path postgresExtension)
      throws SQLException {
    Properties props = new Properties();
    // Nothing may reach for the network: extensions come from the files given.
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    DuckDBConnection c =
        DriverManager.getConnection("jdbc:duckdb:", props).unwrap(DuckDBConnection.class);
    try {
      execute(c, "LOAD " + literal(ducklake.toString()));
      if (postgresExtension != null) {
        execute(c, "LOAD " + literal(postgresExtension.toString()));
      }
      // DuckLake logs each metadata query at debug level; the retries are counted from that log.
      execute(c, "CALL enable_logging('DuckLakeMetadata', level => 'debug')");
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** The appender with index {@code i}: each call inserts {@code rows} rows in one commit. */
  AppendLoad.Appender appender(int i, int rows) {
    Connection c = appenders.get(i);
    return seq -> {
      StringBuilder sql = new StringBuilder("INSERT INTO ").append(TABLE).append(" VALUES ");
      for (int k = 0; k < rows; k++) {
        long value = seq * rows + k;
        sql.append(k == 0 ? "" : ", ")
            .append('(')
            .append(i)
            .append(", ")
            .append(value)
            .append(", '")
            .append(StockDuckLakeBench.note(i, value))
            .append("')");
      }
      try (Statement s = c.createStatement()) {
        s.execute(sql.toString());
      }
      return 0;
    };
  }

  /**
   * The retries DuckLake made between two instants: its conflict checks, logged by every instance.
   */
  long retriesBetween(Instant from, Instant to) throws SQLException {
    long retries = 0;
    for (DuckDBConnection instance : instances) {
      try (PreparedStatement s =
          instance.prepareStatement(
              "SELECT count(*) FROM duckdb_logs WHERE type = 'DuckLakeMetadata'"
                  + " AND contains(message, ?) AND epoch_us(timestamp) >= ?"
                  + " AND epoch_us(timestamp) < ?")) {
        s.setString(1, CONFLICT_CHECK);
        s.setLong(2, ChronoUnit.MICROS.between(Instant.EPOCH, from));
        s.setLong(3, ChronoUnit.MICROS.between(Instant.EPOCH, to));
        try (ResultSet r = s.executeQuery()) {
          r.next();
          retries += r.getLong(1);
        }
      }
    }
    return retries;
  }

  /** DuckLake's retry settings as the first instance has them (name to value). */
  Map<String, String> retrySettings() throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Statement s = admin.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT name, value FROM duckdb_settings() WHERE name IN"
                    + " ('ducklake_max_retry_count', 'ducklake_retry_wait_ms',"
                    + " 'ducklake_retry_backoff') ORDER BY name")) {
      while (r.next()) {
        out.put(r.getString(1), r.getString(2));
      }
    }
    return out;
  }

  /**
   * The PostgreSQL server's counter {@code pg_stat_wal.wal_sync} (write-ahead-log syncs to disk)
   * and its durability settings, read through the metadata catalog's connection.
   */
  PostgresFacts postgresFacts() throws SQLException {
    if (kind != Kind.POSTGRES) {
      throw new IllegalStateException("not a PostgreSQL catalog");
    }
    try (Statement s = admin.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT * FROM postgres_query('__ducklake_metadata_lake', 'SELECT"
                    + " (SELECT wal_sync FROM pg_stat_wal) AS wal_sync,"
                    + " current_setting(''fsync'') AS fsync,"
                    + " current_setting(''synchronous_commit'') AS synchronous_commit,"
                    + " current_setting(''wal_sync_method'') AS wal_sync_method,"
                    + " version() AS version')")) {
      r.next();
      return new PostgresFacts(
          r.getLong("wal_sync"),
          r.getString("fsync"),
          r.getString("synchronous_commit"),
          r.getString("wal_sync_method"),
          r.getString("version"));
    }
  }

  /** What the PostgreSQL server says of its write-ahead log. */
  record PostgresFacts(
      long walSyncs,
      String fsync,
      String synchronousCommit,
      String walSyncMethod,
      String version) {}

  /** The rows of the shared table and the lake's data files: all appends must be inlined. */
  long[] rowsAndDataFiles() throws SQLException {
    try (Statement s = admin.createStatement()) {
      long rows;
      try (ResultSet r = s.executeQuery("SELECT count(*) FROM lake." + TABLE)) {
        r.next();
        rows = r.getLong(1);
      }
      long files;
      try (ResultSet r =
          s.executeQuery("SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file")) {
        r.next();
        files = r.getLong(1);
      }
      return new long[] {rows, files};
    }
  }

  @Override
  public void close() throws SQLException {
    SQLException first = null;
    List<Connection> all = new ArrayList<>(appenders);
    all.add(admin);
    all.addAll(instances);
    for (Connection c : all) {
      try {
        c.close();
      } catch (SQLException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
