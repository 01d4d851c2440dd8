package dev.moraine.duckdb.reference;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Finds the DuckLake extension binary that the reference harness loads into DuckDB.
 *
 * <p>The extension must have been built for exactly the DuckDB version inside {@code duckdb_jdbc}
 * (DuckDB refuses any other). The build fetches it into a per-user cache; see {@code
 * docs/duckdb-reference.md}. The lookup order is:
 *
 * <ol>
 *   <li>the system property {@value #PATH_PROPERTY} (the build passes it to the tests);
 *   <li>the environment variable {@value #PATH_ENV};
 *   <li>the cache {@code ~/.cache/moraine/duckdb-extensions/v<duckdb
 *       version>/ducklake.duckdb_extension}.
 * </ol>
 */
public final class DuckLakeExtension {

  /** System property naming the extension file explicitly. */
  public static final String PATH_PROPERTY = "moraine.ducklake.extension";

  /** Environment variable naming the extension file explicitly. */
  public static final String PATH_ENV = "MORAINE_DUCKLAKE_EXTENSION";

  /** File name of the extension inside a cache directory. */
  public static final String FILE_NAME = "ducklake.duckdb_extension";

  private DuckLakeExtension() {}

  /** The per-user cache directory holding one sub-directory per DuckDB version. */
  public static Path cacheRoot() {
    return Paths.get(System.getProperty("user.home"), ".cache", "moraine", "duckdb-extensions");
  }

  /**
   * Where the cache keeps the extension for {@code duckdbVersion} (with or without a leading 'v').
   */
  public static Path cachedPath(String duckdbVersion) {
    String v = duckdbVersion.startsWith("v") ? duckdbVersion : "v" + duckdbVersion;
    return cacheRoot().resolve(v).resolve(FILE_NAME);
  }

  /**
   * Returns the extension to load into a DuckDB of version {@code duckdbVersion} (as reported by
   * {@code SELECT version()}, e.g. {@code v1.5.5}).
   *
   * @throws IllegalStateException when no readable file is found; the message says how to get one
   */
  public static Path locate(String duckdbVersion) {
    String explicit = System.getProperty(PATH_PROPERTY);
    String source = "system property " + PATH_PROPERTY;
    if (explicit == null || explicit.isBlank()) {
      explicit = System.getenv(PATH_ENV);
      source = "environment variable " + PATH_ENV;
    }
    Path path;
    if (explicit != null && !explicit.isBlank()) {
      path = Paths.get(explicit);
    } else {
      path = cachedPath(duckdbVersion);
      source = "the extension cache";
    }
    if (!Files.isReadable(path)) {
      throw new IllegalStateException(
          "DuckLake extension not found at "
              + path
              + " (from "
              + source
              + "). Run the moraine-duckdb build (it fetches the extension), or run "
              + "moraine-duckdb/src/build/fetch-ducklake-extension.sh <version> <file>, or set "
              + PATH_PROPERTY
              + " to a ducklake.duckdb_extension built for DuckDB "
              + duckdbVersion);
    }
    return path.toAbsolutePath();
  }

  /**
   * An in-memory DuckDB with this extension loaded (automatic extension install and load off) and
   * the DuckLake catalog in {@code catalogFile} attached read-only as {@code lake}, over the data
   * path {@code dataPath}: how a DuckDB user reads an export of a Moraine lake.
   *
   * @throws SQLException if DuckDB refuses; nothing is left open
   * @throws IllegalStateException if the extension is not found ({@link #locate})
   */
  public static Connection attachReadOnly(Path catalogFile, String dataPath) throws SQLException {
    Properties props = new Properties();
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
    try (Statement st = c.createStatement()) {
      String version;
      try (ResultSet rs = st.executeQuery("SELECT version()")) {
        rs.next();
        version = rs.getString(1);
      }
      st.execute("LOAD " + SqlRows.literal(locate(version).toString()));
      st.execute(
          "ATTACH "
              + SqlRows.literal("ducklake:" + catalogFile)
              + " AS lake (DATA_PATH "
              + SqlRows.literal(dataPath)
              + ", READ_ONLY)");
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }
}
