package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.types.DuckLakeType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inlined data, step by step, through our verbs (on real SlateDB) and through SQL on stock DuckLake
 * 1.5.5 attached with DATA_INLINING_ROW_LIMIT 10: after every step both catalogs hold the same
 * ducklake_* rows ({@link RowComparison}) and the same inlined-data and inlined-delete tables, rows
 * included ({@link InlinedRowComparison}). The files stock DuckLake writes (an insert past the
 * limit, and the flush's data and delete files) are registered on our side with the facts of the
 * files themselves.
 *
 * <p>Most steps that create or alter a table inline rows in the same transaction; {@link
 * InlinedTableRegistryDifferentialTest} covers creations and alterations without rows, where both
 * sides register an empty inlined-data table.
 */
class InlinedDataDifferentialTest {
  @TempDir static Path dir;

  /** Table t's columns, ids 1, 2, 3 in this order. */
  private static final List<String> TABLE_COLUMNS = List.of("a", "b", "c");

  private static PairedLakes lakes;
  private static ReferenceDuckLake stock;
  private static Catalog catalog;

  @BeforeAll
  static void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(10),
            "inline-diff");
    stock = lakes.stock;
    catalog = lakes.catalog;
  }

  @AfterAll
  static void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  private static SqlStep step(String name, List<String> sql, Consumer<Transaction> verbs) {
    return SqlStep.of(name, sql, verbs);
  }

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  private static Path fileOf(String relative) {
    return Path.of(stock.dataPath(), "main", "t", relative);
  }

  private static Map<String, Object> byId(String table, String idColumn, long id) throws Exception {
    return stock.rows(table).stream()
        .filter(r -> ((Number) r.get(idColumn)).longValue() == id)
        .findFirst()
        .orElseThrow();
  }

  private static long latestId(String table, String idColumn) throws Exception {
    return stock.rows(table).stream()
        .map(r -> ((Number) r.get(idColumn)).longValue())
        .max(Comparator.naturalOrder())
        .orElseThrow();
  }

  /** A data file stock DuckLake wrote, with the facts read from the file's footer. */
  private static NewDataFile dataFile(long id) throws Exception {
    String path = (String) byId("ducklake_data_file", "data_file_id", id).get("path");
    // The flush writes DuckLake's own row-id and snapshot columns beside the table's.
    return ParquetFacts.read(stock, fileOf(path)).registration(path, TABLE_COLUMNS);
  }

  /** The delete file stock DuckLake wrote against data file {@code target}. */
  private static FlushDeleteFile deleteFileFor(long target) throws Exception {
    Map<String, Object> row =
        stock.rows("ducklake_delete_file").stream()
            .filter(r -> ((Number) r.get("data_file_id")).longValue() == target)
            .findFirst()
            .orElseThrow();
    String path = (String) row.get("path");
    ParquetFacts f = ParquetFacts.read(stock, fileOf(path));
    return FlushDeleteFile.parquet(path, f.fileSize(), f.footerSize());
  }

  // Table t is id 1 on both sides: columns a (1), b (2), and later c (3).
  private static List<SqlStep> steps() {
    List<SqlStep> s = new ArrayList<>();
    s.add(
        step(
            "create a table and inline rows into it",
            List.of(
                "BEGIN",
                "CREATE TABLE t (a INTEGER, b VARCHAR)",
                "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
                "COMMIT"),
            tx -> {
              tx.createTable(
                  0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar")));
              tx.insertInlined(1, List.of(row(1, "x"), row(2, "y")));
            }));
    s.add(
        step(
            "inline a row with a null",
            List.of("INSERT INTO t VALUES (3, NULL)"),
            tx -> tx.insertInlined(1, List.of(row(3, null)))));
    s.add(
        step(
            "delete an inlined row",
            List.of("DELETE FROM t WHERE a = 2"),
            tx -> tx.deleteRowInline(1, 1)));
    s.add(
        new SqlStep(
            "insert past the inlining limit: a data file",
            List.of("INSERT INTO t SELECT (100 + range)::INTEGER, 'f' || range FROM range(20)"),
            () -> {
              NewDataFile file = dataFile(latestId("ducklake_data_file", "data_file_id"));
              return tx -> tx.registerDataFile(1, file);
            }));
    s.add(
        step(
            "delete a data-file row inline",
            // a = 107 is the file's row at position 7: row id 3 + 7.
            List.of("DELETE FROM t WHERE a = 107"),
            tx -> tx.deleteRowInline(1, 10)));
    s.add(
        new SqlStep(
            "flush the inlined data",
            List.of("CALL ducklake_flush_inlined_data('lake')"),
            () -> {
              long flushed = latestId("ducklake_data_file", "data_file_id");
              InlineFlush flush =
                  InlineFlush.of(dataFile(flushed))
                      .withRowDeletes(deleteFileFor(flushed))
                      .withFileDeletes(2, deleteFileFor(2));
              return tx -> tx.flushInlined(1, flush);
            }));
    s.add(
        step(
            "alter the table and inline under the new schema version",
            List.of(
                "BEGIN",
                "ALTER TABLE t ADD COLUMN c BIGINT",
                "INSERT INTO t VALUES (4, 'z', 7)",
                "COMMIT"),
            tx -> {
              tx.addColumn(1, ColumnDef.of("c", "int64"));
              tx.insertInlined(1, List.of(row(4, "z", 7L)));
            }));
    s.add(
        step(
            "inline several rows, then delete one of them later",
            List.of("INSERT INTO t VALUES (5, 'v', -1), (6, 'w', NULL)"),
            tx -> tx.insertInlined(1, List.of(row(5, "v", -1L), row(6, "w", null)))));
    s.add(
        step(
            "delete an inlined row of the new schema version",
            List.of("DELETE FROM t WHERE a = 5"),
            tx -> tx.deleteRowInline(1, 24)));
    s.add(
        step(
            "update an inlined row",
            List.of("UPDATE t SET b = 'ww', c = 8 WHERE a = 6"),
            tx -> tx.updateRowInline(1, 25, row(6, "ww", 8L))));
    s.add(
        step(
            "update the updated row again, and another row in the same commit",
            List.of("UPDATE t SET c = c + 1 WHERE a IN (4, 6)"),
            tx -> {
              tx.updateRowInline(1, 23, row(4, "z", 8L));
              tx.updateRowInline(1, 25, row(6, "ww", 9L));
            }));
    s.add(
        step(
            "update a data-file row: deleted inline, re-inlined under its id",
            // a = 110 is the position-10 row of data file 2, row id 3 + 10.
            List.of("UPDATE t SET b = 'uf' WHERE a = 110"),
            tx -> tx.updateRowInline(1, 13, row(110, "uf", null))));
    s.addAll(typeSteps());
    s.addAll(structSteps());
    s.addAll(listSteps());
    s.addAll(mapSteps());
    return s;
  }

  /**
   * Table mt with a map column: a map with a null value, a null map and an empty map inlined in the
   * transaction creating it, then one more row. The statistics land on the key and value only.
   */
  private static List<SqlStep> mapSteps() {
    List<SqlStep> s = new ArrayList<>();
    long[] mt = new long[1];
    Map<Object, Object> kj = new LinkedHashMap<>();
    kj.put("k", 5);
    kj.put("j", null);
    s.add(
        step(
            "create a table with a map column, inlining map rows",
            List.of(
                "BEGIN",
                "CREATE TABLE mt (id INTEGER, m MAP(VARCHAR, INTEGER))",
                "INSERT INTO mt VALUES (1, MAP {'k': 5, 'j': NULL}), (2, NULL), (3, MAP {})",
                "COMMIT"),
            tx -> {
              mt[0] =
                  tx.createTable(
                      0,
                      "mt",
                      List.of(
                          ColumnDef.of("id", "int32"),
                          ColumnDef.nested(
                              "m",
                              "map",
                              ColumnDef.of("key", "varchar"),
                              ColumnDef.of("value", "int32"))));
              tx.insertInlined(mt[0], List.of(row(1, kj), row(2, null), row(3, Map.of())));
            }));
    s.add(
        step(
            "inline another map row",
            List.of("INSERT INTO mt VALUES (4, MAP {'a': -1})"),
            tx -> tx.insertInlined(mt[0], List.of(row(4, Map.of("a", -1))))));
    return s;
  }

  /** Table lt's id on our side, taken when the step creating it runs. */
  private static long ltId;

  /**
   * Table lt with two list columns: lists, a null list, empty lists and a null element inlined in
   * the transaction creating it, then one more row. The statistics land on the elements only.
   */
  private static List<SqlStep> listSteps() {
    List<SqlStep> s = new ArrayList<>();
    s.add(
        step(
            "create a table with list columns, inlining list rows",
            List.of(
                "BEGIN",
                "CREATE TABLE lt (id INTEGER, li INTEGER[], ls VARCHAR[])",
                "INSERT INTO lt VALUES (1, [3, -2, 9], ['b', 'a']), (2, NULL, []),"
                    + " (3, [], NULL)",
                "COMMIT"),
            tx -> {
              ltId =
                  tx.createTable(
                      0,
                      "lt",
                      List.of(
                          ColumnDef.of("id", "int32"),
                          ColumnDef.nested("li", "list", ColumnDef.of("element", "int32")),
                          ColumnDef.nested("ls", "list", ColumnDef.of("element", "varchar"))));
              tx.insertInlined(
                  ltId,
                  List.of(
                      row(1, List.of(3, -2, 9), List.of("b", "a")),
                      row(2, null, List.of()),
                      row(3, List.of(), null)));
            }));
    s.add(
        step(
            "inline a list row with a null element",
            List.of("INSERT INTO lt VALUES (4, [NULL, 100], ['c'])"),
            tx -> tx.insertInlined(ltId, List.of(row(4, Arrays.asList(null, 100), List.of("c"))))));
    return s;
  }

  /** Table st's id on our side, taken when the step creating it runs. */
  private static long stId;

  /** A struct value as our verb takes it, members in the order given. */
  private static Map<String, Object> struct(Object a, Object b) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("a", a);
    out.put("b", b);
    return out;
  }

  /**
   * Table st with a struct column: rows with a struct, a null struct and null members inlined in
   * the transaction creating it, then one more row, then an inline delete. The statistics land on
   * the members only.
   */
  private static List<SqlStep> structSteps() {
    List<SqlStep> s = new ArrayList<>();
    s.add(
        step(
            "create a table with a struct column, inlining struct rows",
            List.of(
                "BEGIN",
                "CREATE TABLE st (id INTEGER, s STRUCT(a INTEGER, b VARCHAR))",
                "INSERT INTO st VALUES (1, {'a': -3, 'b': 'x'}), (2, NULL),"
                    + " (3, {'a': NULL, 'b': 'y'}), (4, {'a': 7, 'b': NULL})",
                "COMMIT"),
            tx -> {
              stId =
                  tx.createTable(
                      0,
                      "st",
                      List.of(
                          ColumnDef.of("id", "int32"),
                          ColumnDef.nested(
                              "s",
                              "struct",
                              ColumnDef.of("a", "int32"),
                              ColumnDef.of("b", "varchar"))));
              tx.insertInlined(
                  stId,
                  List.of(
                      row(1, struct(-3, "x")),
                      row(2, null),
                      row(3, struct(null, "y")),
                      row(4, Map.of("a", 7))));
            }));
    s.add(
        step(
            "inline another struct row",
            List.of("INSERT INTO st VALUES (5, {'a': 100, 'b': 'a'})"),
            tx -> tx.insertInlined(stId, List.of(row(5, struct(100, "a"))))));
    s.add(
        step(
            "delete an inlined struct row",
            List.of("DELETE FROM st WHERE id = 3"),
            tx -> tx.deleteRowInline(stId, 2)));
    return s;
  }

  /**
   * One column of table ty per type inlined beyond the integers, booleans, floats and varchar: its
   * SQL type, two SQL literals, and the Java values our verb takes for them.
   */
  private record TypedColumn(String name, String sqlType, String sql, Object... values) {}

  private static final List<TypedColumn> TYPED =
      List.of(
          new TypedColumn(
              "d", "DECIMAL(9,2)", "1234567.89), (-0.01", bd("1234567.89"), bd("-0.01")),
          new TypedColumn(
              "d38",
              "DECIMAL(38,10)",
              "12345678901234567890.0123456789), (-1.5",
              bd("12345678901234567890.0123456789"),
              bd("-1.5000000000")),
          new TypedColumn(
              "dt",
              "DATE",
              "DATE '2024-02-29'), (DATE '0001-01-01'",
              LocalDate.of(2024, 2, 29),
              LocalDate.of(1, 1, 1)),
          new TypedColumn(
              "tm",
              "TIME",
              "TIME '13:45:01.5'), (TIME '00:00:00'",
              LocalTime.of(13, 45, 1, 500_000_000),
              LocalTime.MIDNIGHT),
          new TypedColumn(
              "ts",
              "TIMESTAMP",
              "TIMESTAMP '1969-12-31 23:59:59.999999'), (TIMESTAMP '2024-01-01 00:00:00.120'",
              LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
              LocalDateTime.of(2024, 1, 1, 0, 0, 0, 120_000_000)),
          new TypedColumn(
              "tsz",
              "TIMESTAMPTZ",
              "TIMESTAMPTZ '2024-02-29 13:45:01.123456+00'), (TIMESTAMPTZ '1900-01-01 00:00:00+00'",
              Instant.parse("2024-02-29T13:45:01.123456Z"),
              Instant.parse("1900-01-01T00:00:00Z")),
          new TypedColumn(
              "ts_s",
              "TIMESTAMP_S",
              "TIMESTAMP_S '2024-01-01 00:00:01'), (TIMESTAMP_S '9999-12-31 23:59:59'",
              LocalDateTime.of(2024, 1, 1, 0, 0, 1),
              LocalDateTime.of(9999, 12, 31, 23, 59, 59)),
          new TypedColumn(
              "ts_ms",
              "TIMESTAMP_MS",
              "TIMESTAMP_MS '2024-01-01 00:00:01.123'), (TIMESTAMP_MS '2024-01-01 00:00:01.1'",
              LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_000_000),
              LocalDateTime.of(2024, 1, 1, 0, 0, 1, 100_000_000)),
          new TypedColumn(
              "ts_ns",
              "TIMESTAMP_NS",
              "TIMESTAMP_NS '2024-01-01 00:00:01.123456789'), (TIMESTAMP_NS '2024-01-01 00:00:00'",
              LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_456_789),
              LocalDateTime.of(2024, 1, 1, 0, 0)),
          new TypedColumn(
              "u",
              "UUID",
              "'0193a1b2-0000-7000-8000-000000000001'), ('ffffffff-ffff-ffff-ffff-ffffffffffff'",
              UUID.fromString("0193a1b2-0000-7000-8000-000000000001"),
              UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff")),
          new TypedColumn(
              "bl",
              "BLOB",
              "'\\xAA\\x00a\\x5Cb'::BLOB), ('\\x01zz'::BLOB",
              new byte[] {(byte) 0xaa, 0, 'a', '\\', 'b'},
              new byte[] {1, 'z', 'z'}),
          // Bounds whose text Java and DuckDB print alike (RFC 0004 §8.2 item 8).
          new TypedColumn("f4", "FLOAT", "1.5::FLOAT), (-2.25::FLOAT", 1.5f, -2.25f),
          new TypedColumn("f8", "DOUBLE", "0.1::DOUBLE), (3.0::DOUBLE", 0.1, 3.0),
          new TypedColumn("bo", "BOOLEAN", "true), (false", true, false));

  private static BigDecimal bd(String text) {
    return new BigDecimal(text);
  }

  /** Table ty's id on our side, taken when the step creating it runs. */
  private static long tyId;

  /**
   * Table ty with one column per type of {@link #TYPED}, created with a row of nulls inlined in the
   * same transaction; then, per type, an INSERT of its two values (the other columns null).
   */
  private static List<SqlStep> typeSteps() {
    List<SqlStep> s = new ArrayList<>();
    List<String> defs = new ArrayList<>();
    List<ColumnDef> columns = new ArrayList<>();
    for (TypedColumn c : TYPED) {
      defs.add(c.name() + " " + c.sqlType());
      String type =
          switch (c.sqlType()) {
            case "FLOAT" -> "float32";
            case "DOUBLE" -> "float64";
            default -> DuckLakeType.parse(c.sqlType().toLowerCase()).format();
          };
      columns.add(ColumnDef.of(c.name(), type));
    }
    s.add(
        step(
            "create a table of the further inlinable types, inlining a row of nulls",
            List.of(
                "BEGIN",
                "CREATE TABLE ty (" + String.join(", ", defs) + ")",
                "INSERT INTO ty DEFAULT VALUES",
                "COMMIT"),
            tx -> {
              tyId = tx.createTable(0, "ty", columns);
              tx.insertInlined(tyId, List.of(nulls(-1, null)));
            }));
    for (int i = 0; i < TYPED.size(); i++) {
      TypedColumn c = TYPED.get(i);
      int column = i;
      s.add(
          step(
              "inline " + c.sqlType(),
              List.of("INSERT INTO ty (" + c.name() + ") VALUES (" + c.sql() + ")"),
              tx ->
                  tx.insertInlined(
                      tyId, List.of(nulls(column, c.values()[0]), nulls(column, c.values()[1])))));
    }
    s.add(
        step(
            "delete an inlined row of ty",
            List.of("DELETE FROM ty WHERE d = -0.01"),
            tx -> tx.deleteRowInline(tyId, 2)));
    s.add(
        step(
            "drop ty: its inlined rows, registration and statistics stay for time travel",
            List.of("DROP TABLE ty"),
            tx -> tx.dropTable(tyId)));
    return s;
  }

  /** A row of ty holding {@code value} in column {@code column} and nulls elsewhere. */
  private static List<Object> nulls(int column, Object value) {
    List<Object> r = new ArrayList<>();
    for (int i = 0; i < TYPED.size(); i++) {
      r.add(i == column ? value : null);
    }
    return r;
  }

  @TestFactory
  Stream<DynamicTest> everyStep_leavesTheSameRows_inlinedTablesIncluded() {
    return steps().stream().map(st -> DynamicTest.dynamicTest(st.name(), () -> run(st)));
  }

  private static void run(SqlStep st) throws Exception {
    DuckLakeRowSet ours = st.runOn(lakes);
    assertFalse(ours.inlinedTables().isEmpty(), "the steps have inlined data");
    assertEquals(List.of(), RowComparison.differences(stock, ours), st.name());
    assertEquals(List.of(), InlinedRowComparison.differences(stock, ours), st.name());
  }
}
