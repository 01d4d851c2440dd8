package dev.moraine.duckdb.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.duckdb.reference.MetadataColumn;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DuckLakeTables;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An inlined row of every inlinable type, written by stock DuckLake 1.5.5 in SQL on one side and by
 * our inline insert on the other, then exported: the export's inlined-data table declares the
 * column types stock declares, and DuckDB reads back from it the values stock reads from its own (a
 * second row holds a NaN, an infinity and nulls).
 */
class InlinedTypesExportTest {
  @TempDir Path dir;

  private static final String UUID_TEXT = "0b9a3b7e-5c1d-4f2a-9e8b-7c6d5e4f3a21";

  private static final List<String[]> COLUMNS =
      List.of(
          new String[] {"b", "BOOLEAN", "boolean", "true"},
          new String[] {"i8", "TINYINT", "int8", "-5"},
          new String[] {"i32", "INTEGER", "int32", "-70000"},
          new String[] {"u8", "UTINYINT", "uint8", "250"},
          new String[] {"u16", "USMALLINT", "uint16", "65000"},
          new String[] {"u32", "UINTEGER", "uint32", "4000000000"},
          new String[] {"u64", "UBIGINT", "uint64", "18446744073709551615"},
          new String[] {"f", "FLOAT", "float32", "1.5"},
          new String[] {"d", "DOUBLE", "float64", "-2.25"},
          new String[] {"dec", "DECIMAL(18,3)", "decimal(18,3)", "12345.678"},
          new String[] {"dt", "DATE", "date", "DATE '2024-05-01'"},
          new String[] {"tm", "TIME", "time", "TIME '13:45:30.123456'"},
          new String[] {"ts", "TIMESTAMP", "timestamp", "TIMESTAMP '2024-05-01 13:45:30.123456'"},
          new String[] {"ts_s", "TIMESTAMP_S", "timestamp_s", "TIMESTAMP_S '2024-05-01 13:45:30'"},
          new String[] {
            "ts_ms", "TIMESTAMP_MS", "timestamp_ms", "TIMESTAMP_MS '2024-05-01 13:45:30.123'"
          },
          new String[] {
            "ts_ns", "TIMESTAMP_NS", "timestamp_ns", "TIMESTAMP_NS '2024-05-01 13:45:30.123456789'"
          },
          new String[] {
            "tz", "TIMESTAMPTZ", "timestamptz", "TIMESTAMPTZ '2024-05-01 13:45:30.123456+00'"
          },
          new String[] {"u", "UUID", "uuid", "'" + UUID_TEXT + "'::UUID"},
          new String[] {"bl", "BLOB", "blob", "'\\x00\\x01\\xFF\\x27'::BLOB"},
          new String[] {"v", "VARCHAR", "varchar", "'it''s'"});

  private static List<Object> ourValues() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("k", 1L);
    map.put("z", null);
    Map<String, Object> struct = new LinkedHashMap<>();
    struct.put("x", 7L);
    struct.put("y", "q");
    return Arrays.asList(
        true,
        -5L,
        -70000L,
        250L,
        65000L,
        4000000000L,
        new BigInteger("18446744073709551615"),
        1.5f,
        -2.25,
        new BigDecimal("12345.678"),
        LocalDate.of(2024, 5, 1),
        LocalTime.of(13, 45, 30, 123_456_000),
        LocalDateTime.of(2024, 5, 1, 13, 45, 30, 123_456_000),
        LocalDateTime.of(2024, 5, 1, 13, 45, 30),
        LocalDateTime.of(2024, 5, 1, 13, 45, 30, 123_000_000),
        LocalDateTime.of(2024, 5, 1, 13, 45, 30, 123_456_789),
        Instant.parse("2024-05-01T13:45:30.123456Z"),
        UUID.fromString(UUID_TEXT),
        new byte[] {0, 1, (byte) 0xff, '\''},
        "it's",
        map,
        List.of(1L, 2L),
        struct);
  }

  @Test
  void everyInlinableType_isDeclaredAsStockDeclaresIt_andReadsBackTheSame() throws Exception {
    List<String> sqlColumns = new ArrayList<>();
    List<String> sqlValues = new ArrayList<>();
    List<ColumnDef> ours = new ArrayList<>();
    for (String[] c : COLUMNS) {
      sqlColumns.add(c[0] + " " + c[1]);
      sqlValues.add(c[3]);
      ours.add(ColumnDef.of(c[0], c[2]));
    }
    sqlColumns.add("m MAP(VARCHAR, INTEGER)");
    sqlValues.add("MAP {'k': 1, 'z': NULL}");
    ours.add(
        ColumnDef.nested(
            "m", "map", ColumnDef.of("key", "varchar"), ColumnDef.of("value", "int32")));
    sqlColumns.add("li INTEGER[]");
    sqlValues.add("[1, 2]");
    ours.add(ColumnDef.nested("li", "list", ColumnDef.of("element", "int32")));
    sqlColumns.add("st STRUCT(x INTEGER, y VARCHAR)");
    sqlValues.add("{'x': 7, 'y': 'q'}");
    ours.add(
        ColumnDef.nested("st", "struct", ColumnDef.of("x", "int32"), ColumnDef.of("y", "varchar")));

    String inlined = DuckLakeTables.inlinedDataTableName(1, 1);
    List<MetadataColumn> stockShape;
    List<List<String>> stockRows;
    try (ReferenceDuckLake stock = ReferenceDuckLake.open(dir.resolve("stock"))) {
      stock.execute("CREATE TABLE t (" + String.join(", ", sqlColumns) + ")");
      stock.execute("INSERT INTO t VALUES (" + String.join(", ", sqlValues) + ")");
      stock.execute("INSERT INTO t (f, d) VALUES ('NaN'::FLOAT, '-Infinity'::DOUBLE)");
      stockShape = stock.describe(inlined);
      stockRows =
          text(stock.query("SELECT CAST(COLUMNS(*) AS VARCHAR) FROM t ORDER BY b NULLS LAST"));
    }

    try (ExportLake lake = new ExportLake(dir.resolve("ours"))) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", ours));
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(ourValues())));
      List<Object> special = new ArrayList<>(Arrays.asList(new Object[ours.size()]));
      special.set(7, Float.NaN);
      special.set(8, Double.NEGATIVE_INFINITY);
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(special)));
      Path file = dir.resolve("ours.ducklake");
      DuckLakeExport.export(lake.catalog, lake.catalog.snapshot(), file);
      try (Connection raw = DriverManager.getConnection("jdbc:duckdb:" + file)) {
        List<List<String>> shape = ExportLake.query(raw, "DESCRIBE main." + inlined);
        List<String> ourTypes = shape.stream().map(r -> r.get(0) + " " + r.get(1)).toList();
        List<String> stockTypes = stockShape.stream().map(c -> c.name() + " " + c.type()).toList();
        assertEquals(stockTypes, ourTypes);
      }
      try (Connection duck = lake.attach(file)) {
        assertEquals(
            stockRows,
            ExportLake.query(
                duck, "SELECT CAST(COLUMNS(*) AS VARCHAR) FROM lake.main.t ORDER BY b NULLS LAST"));
      }
    }
  }

  private static List<List<String>> text(List<Map<String, Object>> rows) {
    List<List<String>> out = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      List<String> cells = new ArrayList<>();
      r.values().forEach(v -> cells.add(v == null ? null : String.valueOf(v)));
      out.add(cells);
    }
    return out;
  }
}
