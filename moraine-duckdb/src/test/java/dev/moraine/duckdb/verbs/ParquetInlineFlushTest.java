package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.kv.KvStore;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.parquet.ParquetInlineFlush;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * moraine-parquet's {@link ParquetInlineFlush} against stock DuckLake 1.5.5's {@code
 * ducklake_flush_inlined_data}: the same rows inlined on both sides (every inlinable flat type, and
 * a struct, a list and a map with nulls and empty ones), an inlined row deleted, a data file stock
 * wrote past the inlining limit registered on ours and one of its rows deleted inline; then stock
 * flushes, and ours writes the flush's files with the helper and registers them. The files must
 * have stock's Parquet schema and contents, the data file stock's statistics, and DuckDB reading
 * our catalog (exported) must see at every snapshot the rows, row ids included, it sees in stock's.
 */
class ParquetInlineFlushTest {
  private static final String SQL_TYPES =
      "a INTEGER, b VARCHAR, i8 TINYINT, u64 UBIGINT, bo BOOLEAN, f FLOAT, db DOUBLE, bl BLOB,"
          + " d4 DECIMAL(4,1), d18 DECIMAL(18,3), d38 DECIMAL(38,5), dt DATE, tm TIME,"
          + " tss TIMESTAMP_S, tsm TIMESTAMP_MS, ts TIMESTAMP, tsn TIMESTAMP_NS, tz TIMESTAMPTZ,"
          + " u UUID, s STRUCT(x INTEGER, y VARCHAR), l INTEGER[], m MAP(VARCHAR, INTEGER)";

  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("a", "int32"),
          ColumnDef.of("b", "varchar"),
          ColumnDef.of("i8", "int8"),
          ColumnDef.of("u64", "uint64"),
          ColumnDef.of("bo", "boolean"),
          ColumnDef.of("f", "float32"),
          ColumnDef.of("db", "float64"),
          ColumnDef.of("bl", "blob"),
          ColumnDef.of("d4", "decimal(4,1)"),
          ColumnDef.of("d18", "decimal(18,3)"),
          ColumnDef.of("d38", "decimal(38,5)"),
          ColumnDef.of("dt", "date"),
          ColumnDef.of("tm", "time"),
          ColumnDef.of("tss", "timestamp_s"),
          ColumnDef.of("tsm", "timestamp_ms"),
          ColumnDef.of("ts", "timestamp"),
          ColumnDef.of("tsn", "timestamp_ns"),
          ColumnDef.of("tz", "timestamptz"),
          ColumnDef.of("u", "uuid"),
          ColumnDef.nested("s", "struct", ColumnDef.of("x", "int32"), ColumnDef.of("y", "varchar")),
          ColumnDef.nested("l", "list", ColumnDef.of("element", "int32")),
          ColumnDef.nested(
              "m", "map", ColumnDef.of("key", "varchar"), ColumnDef.of("value", "int32")));

  private static final String PROJECTION =
      "rowid, a, coalesce(b, 'NULL'), i8, u64, bo, f, db, bl, d4, d18, d38, dt, tm, tss, tsm, ts,"
          + " tsn, tz, u, coalesce(s::VARCHAR, 'NULL'), coalesce(l::VARCHAR, 'NULL'),"
          + " coalesce(m::VARCHAR, 'NULL')";

  @TempDir Path dir;
  private ReferenceDuckLake stock;
  private SlateStoreProvider provider;
  private KvStore store;
  private Catalog catalog;
  private Path table;

  @BeforeEach
  void open() throws Exception {
    stock = ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(100).open();
    provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.inMemory("flush-" + UUID.randomUUID()), "lake"));
    store = provider.openWriter();
    catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(stock.dataPath()));
    table = Path.of(stock.dataPath()).resolve("main").resolve("t");
  }

  @AfterEach
  void close() throws Exception {
    if (catalog != null) {
      catalog.close();
    }
    if (store != null) {
      store.close();
    }
    if (provider != null) {
      ObjectStoreSpec.dropInMemory(
          ((ObjectStoreSpec.InMemory) provider.config().objectStore()).name());
    }
    if (stock != null) {
      stock.close();
    }
  }

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  private static Map<String, Object> struct(Object x, Object y) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("x", x);
    m.put("y", y);
    return m;
  }

  /** The same inline inserts and deletes on both sides, and a data file with a row deleted. */
  private void inlineOnBothSides() throws Exception {
    stock.execute("CREATE TABLE t (" + SQL_TYPES + ")");
    catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
    stock.execute(
        "INSERT INTO t VALUES (1, 'x', -1, 18446744073709551615, true, 1.5, 2.5,"
            + " '\\x01\\xff'::BLOB, 123.4, -1.234, 12345678901234567890.12345, '2020-02-03',"
            + " '12:34:56.789012', '2020-01-01 01:02:03', '2020-01-01 01:02:03.456',"
            + " '2020-01-01 01:02:03.456789', '2020-01-01 01:02:03.456789123',"
            + " '2020-01-01 00:00:00+00', '00000000-0000-0000-0000-000000000001',"
            + " {'x': 1, 'y': 'p'}, [1, NULL, 2], MAP {'a': 1, 'b': NULL}),"
            + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, {'x': NULL, 'y': 'q'}, [], MAP {})");
    Map<Object, Object> m1 = new LinkedHashMap<>();
    m1.put("a", 1);
    m1.put("b", null);
    List<Object> nulls = new ArrayList<>();
    for (int i = 0; i < 19; i++) {
      nulls.add(null);
    }
    List<Object> second = row(2);
    second.addAll(nulls.subList(0, 18));
    second.add(struct(null, "q"));
    second.add(List.of());
    second.add(Map.of());
    catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(
                        1,
                        "x",
                        -1,
                        new BigInteger("18446744073709551615"),
                        true,
                        1.5f,
                        2.5d,
                        new byte[] {1, (byte) 0xff},
                        new BigDecimal("123.4"),
                        new BigDecimal("-1.234"),
                        new BigDecimal("12345678901234567890.12345"),
                        LocalDate.parse("2020-02-03"),
                        LocalTime.parse("12:34:56.789012"),
                        LocalDateTime.parse("2020-01-01T01:02:03"),
                        LocalDateTime.parse("2020-01-01T01:02:03.456"),
                        LocalDateTime.parse("2020-01-01T01:02:03.456789"),
                        LocalDateTime.parse("2020-01-01T01:02:03.456789123"),
                        Instant.parse("2020-01-01T00:00:00Z"),
                        UUID.fromString("00000000-0000-0000-0000-000000000001"),
                        struct(1, "p"),
                        Arrays.asList(1, null, 2),
                        m1),
                    second)));
    stock.execute(
        "INSERT INTO t VALUES (3, 'z', 5, 0, false, 'nan', -1e300, ''::BLOB, -0.5, 0.000,"
            + " -99.00001, '0001-01-01', '00:00:00', '1970-01-01 00:00:00',"
            + " '2262-01-01 00:00:00.001', '9999-12-31 23:59:59.999999', '1677-09-22 00:00:00',"
            + " '1999-12-31 23:00:00-01', 'ffffffff-ffff-ffff-ffff-ffffffffffff', NULL, NULL,"
            + " NULL)");
    catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(
                        3,
                        "z",
                        5,
                        BigInteger.ZERO,
                        false,
                        Float.NaN,
                        -1e300,
                        new byte[0],
                        new BigDecimal("-0.5"),
                        new BigDecimal("0.000"),
                        new BigDecimal("-99.00001"),
                        LocalDate.parse("0001-01-01"),
                        LocalTime.MIDNIGHT,
                        LocalDateTime.parse("1970-01-01T00:00:00"),
                        LocalDateTime.parse("2262-01-01T00:00:00.001"),
                        LocalDateTime.parse("9999-12-31T23:59:59.999999"),
                        LocalDateTime.parse("1677-09-22T00:00:00"),
                        Instant.parse("2000-01-01T00:00:00Z"),
                        UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
                        null,
                        null,
                        null))));
    stock.execute("DELETE FROM t WHERE a = 2");
    catalog.commit(tx -> tx.deleteRowInline(1, 1));
    stock.execute("INSERT INTO t (a, b, l) SELECT 1000 + i, 'f' || i, [i] FROM range(200) r(i)");
    NewDataFile file = StockFiles.asStock(stock, latestDataFile());
    catalog.commit(tx -> tx.registerDataFile(1, file));
    // a = 1005 is the file's row at position 5: row id 3 + 5.
    stock.execute("DELETE FROM t WHERE a = 1005");
    catalog.commit(tx -> tx.deleteRowInline(1, 8));
    assertEquals(stock.latestSnapshot().snapshotId(), catalog.snapshot().info().snapshotId());
  }

  @Test
  void theHelpersFiles_areStocksFiles() throws Exception {
    inlineOnBothSides();
    long written = latestDataFile();
    stock.execute("CALL ducklake_flush_inlined_data('" + stock.alias() + "')");
    long flushedId = latestDataFile();
    InlineFlush flush = ParquetInlineFlush.write(catalog.snapshot(), 1, table).orElseThrow();
    catalog.commit(tx -> tx.flushInlined(1, flush));

    Map<String, Object> stockData = rowOf("ducklake_data_file", "data_file_id", flushedId);
    NewDataFile ours = flush.parts().get(0).dataFile();
    assertEquals(3L, ours.recordCount());
    assertEquals(StockFiles.statsOf(stock, flushedId), StockFiles.comparable(ours.columnStats()));
    Path stockFile = table.resolve((String) stockData.get("path"));
    Path ourFile = table.resolve(ours.path());
    assertSameSchema(stockFile, ourFile);
    assertEquals(contentsOf(stockFile, "*"), contentsOf(ourFile, "*"));

    // The delete file of the flushed rows, and the one of the data file stock wrote.
    Map<String, Object> stockRowDeletes = deleteFileOf(flushedId);
    Path stockRowDeleteFile = table.resolve((String) stockRowDeletes.get("path"));
    Path ourRowDeleteFile = table.resolve(flush.parts().get(0).rowDeletes().orElseThrow().path());
    assertSameSchema(stockRowDeleteFile, ourRowDeleteFile);
    assertEquals(
        contentsOf(stockRowDeleteFile, "'pos|_ducklake_internal_snapshot_id'"),
        contentsOf(ourRowDeleteFile, "'pos|_ducklake_internal_snapshot_id'"));
    Path stockFileDeletes = table.resolve((String) deleteFileOf(written).get("path"));
    Path ourFileDeletes = table.resolve(flush.fileDeletes().get(written).path());
    assertSameSchema(stockFileDeletes, ourFileDeletes);
    assertEquals(contentsOf(stockFileDeletes, "*"), contentsOf(ourFileDeletes, "*"));

    // The registrations as stock made them, sizes and paths aside.
    DataFileInfo flushed =
        catalog.snapshot().dataFiles(1).stream()
            .filter(f -> f.path().equals(ours.path()))
            .findFirst()
            .orElseThrow();
    assertEquals(
        List.of(
            StockFiles.number(stockData, "begin_snapshot"),
            StockFiles.number(stockData, "row_id_start"),
            StockFiles.number(stockData, "partial_max"),
            StockFiles.number(stockData, "record_count")),
        List.of(
            flushed.beginSnapshot(),
            flushed.rowIdStart().orElseThrow(),
            flushed.partialMax().orElseThrow(),
            flushed.recordCount()));
    for (DeleteFileInfo d : catalog.snapshot().deleteFiles(1)) {
      long target = d.dataFileId() == flushed.dataFileId() ? flushedId : d.dataFileId();
      Map<String, Object> s = deleteFileOf(target);
      assertEquals(
          List.of(StockFiles.number(s, "begin_snapshot"), StockFiles.number(s, "delete_count")),
          List.of(d.beginSnapshot(), d.deleteCount()),
          "the delete file of data file " + target);
    }
    assertRowsAsStock();
  }

  @Test
  void thePassFlushesFirst_andDuckDbReadsTheRows() throws Exception {
    inlineOnBothSides();
    stock.execute("CALL ducklake_flush_inlined_data('" + stock.alias() + "')");
    MaintenancePass pass =
        catalog.runMaintenance(
            MaintenancePolicy.every(Duration.ofHours(1))
                .flushingInlinedData(LocalFileMerger.of(catalog, Path.of(stock.dataPath()))));
    assertEquals("flush", pass.steps().get(0).step());
    assertEquals(MaintenancePass.Step.RAN, pass.steps().get(0).status(), pass.toString());
    assertTrue(catalog.snapshot().inlinedRows(1).rows().isEmpty(), "nothing stays inlined");
    assertTrue(catalog.snapshot().history().inlinedFileDeletes().isEmpty());
    assertRowsAsStock();

    // Nothing is left inlined, so a second pass has nothing to flush and changes nothing.
    long head = catalog.snapshot().info().snapshotId();
    MaintenancePass again =
        catalog.runMaintenance(
            MaintenancePolicy.every(Duration.ofHours(1))
                .flushingInlinedData(LocalFileMerger.of(catalog, Path.of(stock.dataPath()))));
    assertEquals("flushed 0 tables", again.steps().get(0).detail());
    assertEquals(head, catalog.snapshot().info().snapshotId());
  }

  /** The columns every snapshot of the partitioned table has (c comes at snapshot 3). */
  private static final String PARTITIONED_PROJECTION =
      "rowid, a, coalesce(b, 'NULL'), coalesce(ts::VARCHAR, 'NULL'), coalesce(d::VARCHAR, 'NULL')";

  /**
   * Rows inlined under two schema versions before the table was partitioned, and rows inlined into
   * five partition keys since (identity of a varchar, year, month and hour of a timestamp, day of a
   * date), one of them deleted: stock writes one file per version and one per partition, in the
   * order of their first rows, the partitioned ones under {@code <key>=<value>/} with their
   * partition values, and a delete file for the partition holding the deleted row. The helper
   * writes the same files and the verb registers them as stock did; DuckDB reads our catalog as
   * stock's at every snapshot.
   */
  @Test
  void aPartitionedTable_isFlushedIntoAFilePerVersionAndPartition_asStockFlushesIt()
      throws Exception {
    stock.execute("CREATE TABLE t (a INTEGER, b VARCHAR, ts TIMESTAMP, d DATE)");
    catalog.commit(
        tx ->
            tx.createTable(
                0,
                "t",
                List.of(
                    ColumnDef.of("a", "int32"),
                    ColumnDef.of("b", "varchar"),
                    ColumnDef.of("ts", "timestamp"),
                    ColumnDef.of("d", "date"))));
    stock.execute(
        "INSERT INTO t VALUES (1, 'x', TIMESTAMP '2024-03-04 05:06:07', DATE '2024-03-04')");
    catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(
                        1,
                        "x",
                        LocalDateTime.parse("2024-03-04T05:06:07"),
                        LocalDate.parse("2024-03-04")))));
    stock.execute("ALTER TABLE t ADD COLUMN c INTEGER");
    catalog.commit(tx -> tx.addColumn(1, ColumnDef.of("c", "int32")));
    stock.execute("INSERT INTO t VALUES (5, 'w', NULL, NULL, 9)");
    catalog.commit(tx -> tx.insertInlined(1, List.of(row(5, "w", null, null, 9))));
    stock.execute("ALTER TABLE t SET PARTITIONED BY (b, year(ts), month(ts), day(d), hour(ts))");
    catalog.commit(
        tx ->
            tx.setPartitionKey(
                1,
                List.of(
                    PartitionKey.identity(2),
                    new PartitionKey(3, "year"),
                    new PartitionKey(3, "month"),
                    new PartitionKey(4, "day"),
                    new PartitionKey(3, "hour"))));
    stock.execute(
        "INSERT INTO t VALUES"
            + " (2, 'q', TIMESTAMP '2023-12-31 23:00:00', DATE '2023-01-02', 1),"
            + " (1, 'p', TIMESTAMP '2024-01-01 00:00:00.5', DATE '2024-02-29', 2),"
            + " (3, 'q', TIMESTAMP '2023-12-31 23:59:00', DATE '2023-01-02', 3)");
    catalog.commit(
        tx ->
            tx.insertInlined(
                1,
                List.of(
                    row(
                        2,
                        "q",
                        LocalDateTime.parse("2023-12-31T23:00:00"),
                        LocalDate.parse("2023-01-02"),
                        1),
                    row(
                        1,
                        "p",
                        LocalDateTime.parse("2024-01-01T00:00:00.5"),
                        LocalDate.parse("2024-02-29"),
                        2),
                    row(
                        3,
                        "q",
                        LocalDateTime.parse("2023-12-31T23:59:00"),
                        LocalDate.parse("2023-01-02"),
                        3))));
    stock.execute("DELETE FROM t WHERE a = 3");
    catalog.commit(tx -> tx.deleteRowInline(1, 4));
    stock.execute("CALL ducklake_flush_inlined_data('" + stock.alias() + "')");
    InlineFlush flush = ParquetInlineFlush.write(catalog.snapshot(), 1, table).orElseThrow();
    assertEquals(4, flush.parts().size(), "two versions, two partitions");
    catalog.commit(tx -> tx.flushInlined(1, flush));

    List<List<Object>> theirs = new ArrayList<>();
    for (Map<String, Object> r : stock.rows("ducklake_data_file")) {
      long id = StockFiles.number(r, "data_file_id");
      List<String> values = new ArrayList<>();
      for (Map<String, Object> v : stock.rows("ducklake_file_partition_value")) {
        if (StockFiles.number(v, "data_file_id") == id) {
          values.add((String) v.get("partition_value"));
        }
      }
      theirs.add(
          List.of(
              id,
              StockFiles.number(r, "begin_snapshot"),
              StockFiles.number(r, "row_id_start"),
              StockFiles.number(r, "partial_max"),
              StockFiles.number(r, "record_count"),
              r.get("partition_id") != null,
              values,
              directoryOf((String) r.get("path"))));
    }
    List<List<Object>> ours = new ArrayList<>();
    for (DataFileInfo f : catalog.snapshot().dataFiles(1)) {
      ours.add(
          List.of(
              f.dataFileId(),
              f.beginSnapshot(),
              f.rowIdStart().orElseThrow(),
              f.partialMax().orElseThrow(),
              f.recordCount(),
              f.partitionId().isPresent(),
              f.partitionValues().stream().map(DataFileInfo.PartitionValue::value).toList(),
              directoryOf(f.path())));
    }
    // Stock numbers the files of a flush of several versions and partitions in an order that varies
    // from run to run (seen several ways on the same statements); ours follows their first rows. So
    // the ids are compared as a set,
    // and every other fact file by file, the files taken in the order of their first row ids.
    assertEquals(idsOf(theirs), idsOf(ours));
    assertEquals(withoutIds(theirs), withoutIds(ours));
    List<List<Long>> theirDeletes = new ArrayList<>();
    // A delete file's target is named by the target's first row id, for the same reason.
    Map<Long, Long> theirStarts = new java.util.HashMap<>();
    theirs.forEach(f -> theirStarts.put((Long) f.get(0), (Long) f.get(2)));
    for (Map<String, Object> r : stock.rows("ducklake_delete_file")) {
      theirDeletes.add(
          List.of(
              theirStarts.get(StockFiles.number(r, "data_file_id")),
              StockFiles.number(r, "begin_snapshot"),
              StockFiles.number(r, "delete_count")));
    }
    Map<Long, Long> ourStarts = new java.util.HashMap<>();
    ours.forEach(f -> ourStarts.put((Long) f.get(0), (Long) f.get(2)));
    List<List<Long>> ourDeletes = new ArrayList<>();
    for (DeleteFileInfo d : catalog.snapshot().deleteFiles(1)) {
      ourDeletes.add(List.of(ourStarts.get(d.dataFileId()), d.beginSnapshot(), d.deleteCount()));
    }
    assertEquals(theirDeletes, ourDeletes);
    assertEquals(
        stock.latestSnapshot().snapshotId(), catalog.snapshot().info().snapshotId(), "snapshots");
    StockFiles.assertReadAsStock(
        stock, catalog, dir.resolve("partitioned.ducklake"), PARTITIONED_PROJECTION);
  }

  private static java.util.Set<Object> idsOf(List<List<Object>> files) {
    java.util.Set<Object> ids = new java.util.TreeSet<>();
    files.forEach(f -> ids.add(f.get(0)));
    return ids;
  }

  /** The files' facts but their ids, in the order of their first row ids (the third fact). */
  private static List<List<Object>> withoutIds(List<List<Object>> files) {
    return files.stream()
        .sorted(java.util.Comparator.comparingLong(f -> (Long) f.get(2)))
        .map(f -> f.subList(1, f.size()))
        .toList();
  }

  /** The directories of a file's path relative to its table, "" for none. */
  private static String directoryOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash + 1);
  }

  /**
   * A row inlined while the table was partitioned whose partition column is NULL: stock records a
   * NULL partition value, which the lake cannot (its values are strings, in the Rust crate's format
   * too). The helper refuses before writing anything, and so does the verb for a part that gives
   * the row a value.
   */
  @Test
  void aNullPartitionValue_isRefused_andNothingIsWritten() throws Exception {
    catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    catalog.commit(tx -> tx.setPartitionKey(1, List.of(PartitionKey.identity(2))));
    catalog.commit(tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, null))));
    java.nio.file.Files.createDirectories(table);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> ParquetInlineFlush.write(catalog.snapshot(), 1, table));
    try (var files = java.nio.file.Files.walk(table)) {
      assertEquals(1, files.count(), "no file was written");
    }
    long head = catalog.snapshot().info().snapshotId();
    org.junit.jupiter.api.Assertions.assertThrows(
        dev.moraine.core.catalog.InvalidArgumentException.class,
        () ->
            catalog.commit(
                tx ->
                    tx.flushInlined(
                        1,
                        InlineFlush.of(
                            NewDataFile.parquet("x=x/f.parquet", 2, 100, 10)
                                .withPartitionValues(List.of("x"))))));
    assertEquals(head, catalog.snapshot().info().snapshotId());
  }

  private void assertRowsAsStock() throws Exception {
    StockFiles.assertReadAsStock(stock, catalog, dir.resolve("ours.ducklake"), PROJECTION);
  }

  private Map<String, Object> rowOf(String metadata, String idColumn, long id) throws Exception {
    return stock.rows(metadata).stream()
        .filter(r -> StockFiles.number(r, idColumn) == id)
        .findFirst()
        .orElseThrow();
  }

  private long latestDataFile() throws Exception {
    return stock.rows("ducklake_data_file").stream()
        .mapToLong(r -> StockFiles.number(r, "data_file_id"))
        .max()
        .orElseThrow();
  }

  /** Stock's live delete file of data file {@code target}. */
  private Map<String, Object> deleteFileOf(long target) throws Exception {
    return stock.rows("ducklake_delete_file").stream()
        .filter(
            r -> StockFiles.number(r, "data_file_id") == target && r.get("end_snapshot") == null)
        .findFirst()
        .orElseThrow();
  }

  /**
   * The two files' schemas as DuckDB's {@code parquet_schema} reads them are the same: names,
   * physical types, repetitions, converted types, field ids, scales and precisions field by field,
   * and every logical type stock writes. (parquet-java also writes the logical type of each
   * converted one, an integer's {@code IntType} beside its {@code INT_32}, and leaves the root's
   * repetition unset; DuckDB reads both forms alike.)
   */
  private void assertSameSchema(Path stockFile, Path ourFile) throws Exception {
    String sql =
        "SELECT name, type, type_length, CASE WHEN name = 'duckdb_schema' THEN NULL"
            + " ELSE repetition_type END AS repetition, converted_type, field_id, scale, precision"
            + " FROM parquet_schema('%s')";
    assertEquals(
        stock.query(String.format(sql, stockFile)), stock.query(String.format(sql, ourFile)));
    String logical =
        "SELECT name, logical_type FROM parquet_schema('%s') WHERE field_id IN (SELECT field_id"
            + " FROM parquet_schema('"
            + stockFile
            + "') WHERE logical_type IS NOT NULL) ORDER BY field_id";
    assertEquals(
        stock.query(String.format(logical, stockFile)),
        stock.query(String.format(logical, ourFile)));
  }

  /** A Parquet file's rows, as DuckDB reads them. */
  private List<String> contentsOf(Path file, String projection) throws Exception {
    List<String> out = new ArrayList<>();
    stock
        .query("SELECT COLUMNS(" + projection + ")::VARCHAR FROM read_parquet('" + file + "')")
        .forEach(r -> out.add(r.values().toString()));
    return out;
  }
}
