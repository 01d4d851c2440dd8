package dev.moraine.duckdb.reference;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * One connection to the reference DuckDB instance, with the lake as its default catalog. Each
 * session has its own transaction, so two sessions can run overlapping DuckLake transactions:
 *
 * <pre>{@code
 * a.begin(); b.begin();
 * a.execute("INSERT INTO t VALUES (1)");
 * b.execute("DELETE FROM t WHERE i = 0");
 * a.commit();
 * CommitOutcome second = b.tryCommit();
 * }</pre>
 *
 * <p>Not thread-safe: use one session from one thread at a time.
 */
public final class ReferenceSession implements AutoCloseable {

  private final Connection connection;

  ReferenceSession(Connection connection) {
    this.connection = connection;
  }

  /** Runs one statement; its result, if any, is discarded. */
  public void execute(String sql) throws SQLException {
    SqlRows.execute(connection, sql);
  }

  /** Runs statements in order. */
  public void executeAll(List<String> statements) throws SQLException {
    for (String sql : statements) {
      execute(sql);
    }
  }

  /** Runs a query and returns its rows as column-ordered maps. */
  public List<Map<String, Object>> query(String sql) throws SQLException {
    return SqlRows.query(connection, sql);
  }

  /** Runs a query expected to return one value. */
  public Object scalar(String sql) throws SQLException {
    List<Map<String, Object>> rows = query(sql);
    if (rows.size() != 1 || rows.get(0).size() != 1) {
      throw new SQLException("expected one value from: " + sql + ", got " + rows);
    }
    return rows.get(0).values().iterator().next();
  }

  /** Starts an explicit transaction. */
  public void begin() throws SQLException {
    execute("BEGIN TRANSACTION");
  }

  /** Commits the open transaction; a failed commit throws. */
  public void commit() throws SQLException {
    execute("COMMIT");
  }

  /**
   * Commits the open transaction and reports whether it landed. When it did not, the transaction is
   * rolled back (if DuckDB left it open) so the session can be reused.
   */
  public CommitOutcome tryCommit() {
    try {
      execute("COMMIT");
      return CommitOutcome.landed();
    } catch (SQLException e) {
      rollbackQuietly();
      return CommitOutcome.failed(e.getMessage());
    }
  }

  /** Rolls back the open transaction. */
  public void rollback() throws SQLException {
    execute("ROLLBACK");
  }

  private void rollbackQuietly() {
    try {
      execute("ROLLBACK");
    } catch (SQLException ignored) {
      // No transaction was left open.
    }
  }

  /** The underlying JDBC connection, for callers that need more than this class offers. */
  public Connection connection() {
    return connection;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
