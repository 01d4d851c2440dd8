package dev.moraine.duckdb.export;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.KvStore;
import dev.moraine.duckdb.reference.DuckLakeExtension;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * A Moraine lake for the export tests: a catalog on real SlateDB in memory whose data path is a
 * local directory, a plain DuckDB (no DuckLake) that writes the Parquet files the tests register,
 * and stock DuckDB with the DuckLake extension to attach an export as a DuckDB user would.
 */
final class ExportLake implements AutoCloseable {
  final Path dataPath;
  final Catalog catalog;
  private final SlateStoreProvider provider;
  private final KvStore store;
  private final Connection writer;

  ExportLake(Path dir) throws SQLException, IOException {
    this.dataPath = dir.resolve("data");
    Files.createDirectories(dataPath);
    this.provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory("export-" + UUID.randomUUID()), "lake"));
    this.store = provider.openWriter();
    this.catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(dataPath + "/"));
    this.writer = duckdb();
  }

  /** What a written Parquet file says about itself. */
  record Written(String relativePath, long records, long size, long footer) {}

  /**
   * Writes the rows of {@code select} as a Parquet file at {@code relativePath} under the data
   * path, with {@code fieldIds} (DuckDB's FIELD_IDS struct text, or null for none).
   */
  Written parquet(String relativePath, String select, String fieldIds)
      throws SQLException, IOException {
    Path file = dataPath.resolve(relativePath);
    Files.createDirectories(file.getParent());
    try (Statement st = writer.createStatement()) {
      st.execute(
          "COPY ("
              + select
              + ") TO '"
              + file
              + "' (FORMAT parquet"
              + (fieldIds == null ? "" : ", FIELD_IDS " + fieldIds)
              + ")");
    }
    long records;
    try (Statement st = writer.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM read_parquet('" + file + "')")) {
      rs.next();
      records = rs.getLong(1);
    }
    long size = Files.size(file);
    long footer;
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      byte[] tail = new byte[8];
      raf.seek(size - 8);
      raf.readFully(tail);
      footer = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
    }
    return new Written(relativePath, records, size, footer);
  }

  /** An in-memory DuckDB with extension autoloading off. */
  static Connection duckdb() throws SQLException {
    Properties props = new Properties();
    props.setProperty("autoinstall_known_extensions", "false");
    props.setProperty("autoload_known_extensions", "false");
    return DriverManager.getConnection("jdbc:duckdb:", props);
  }

  /**
   * Stock DuckDB with the DuckLake extension, the export attached as {@code lake} with the lake's
   * data path, read-only, as the README tells a DuckDB user to.
   */
  Connection attach(Path export) throws SQLException {
    return DuckLakeExtension.attachReadOnly(export, dataPath + "/");
  }

  /** The rows of a query, each as its columns' text. */
  static List<List<String>> query(Connection c, String sql) throws SQLException {
    List<List<String>> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
          row.add(rs.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    try (Connection w = writer;
        KvStore s = store;
        Catalog c = catalog) {
      // closed in reverse order
    } finally {
      ObjectStoreSpec.dropInMemory(
          ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
    }
  }
}
