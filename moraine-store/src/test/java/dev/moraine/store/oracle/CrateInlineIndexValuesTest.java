package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.index.InlinedIndexValues;
import dev.moraine.core.kv.KvStore;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InlinedIndexValues} against the Rust crate: a Java writer inlines rows of every indexable
 * type (extremes, NULLs, a uuid, each timestamp unit, dates before 1970), and deletes one; the
 * crate then derives, from the Java-written chunks, the entries of an index over all those columns
 * ({@code moraine-oracle index-expect}, its {@code inline_backfill_entries}). For every live row,
 * and only those, the values Java derives from its own rows must encode to the crate's key, byte
 * for byte.
 */
class CrateInlineIndexValuesTest {
  @TempDir Path temp;

  private static final List<String[]> COLUMNS =
      List.of(
          new String[] {"i8", "int8"},
          new String[] {"i16", "int16"},
          new String[] {"i32", "int32"},
          new String[] {"i64", "int64"},
          new String[] {"u8", "uint8"},
          new String[] {"u16", "uint16"},
          new String[] {"u32", "uint32"},
          new String[] {"u64", "uint64"},
          new String[] {"f32", "float32"},
          new String[] {"f64", "float64"},
          new String[] {"b", "boolean"},
          new String[] {"s", "varchar"},
          new String[] {"bl", "blob"},
          new String[] {"u", "uuid"},
          new String[] {"d", "date"},
          new String[] {"tss", "timestamp_s"},
          new String[] {"tsm", "timestamp_ms"},
          new String[] {"ts", "timestamp"},
          new String[] {"tsn", "timestamp_ns"},
          new String[] {"tz", "timestamptz"});

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  @Test
  void theCrateDerivesFromJavaChunks_theKeysJavaDerives() throws Exception {
    Path lake = temp.resolve("inline");
    Map<Long, String> ours = new TreeMap<>();
    long[] table = new long[1];
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      List<ColumnDef> defs = COLUMNS.stream().map(c -> ColumnDef.of(c[0], c[1])).toList();
      catalog.commit(
          tx -> {
            long schema = tx.createSchema("s");
            long t = tx.createTable(schema, "t", defs);
            table[0] = t;
            tx.insertInlined(
                t,
                List.of(
                    row(
                        -128,
                        -32768,
                        Integer.MIN_VALUE,
                        Long.MIN_VALUE,
                        0,
                        0,
                        0L,
                        BigInteger.ZERO,
                        Float.NEGATIVE_INFINITY,
                        -0.0d,
                        false,
                        "",
                        new byte[0],
                        UUID.fromString("00000000-0000-0000-0000-000000000000"),
                        LocalDate.parse("0001-01-01"),
                        LocalDateTime.parse("1969-12-31T23:59:59"),
                        LocalDateTime.parse("1900-01-01T00:00:00.001"),
                        LocalDateTime.parse("1969-12-31T23:59:59.999999"),
                        LocalDateTime.parse("1677-09-22T00:00:00.000000001"),
                        Instant.parse("1969-12-31T23:59:59.999999Z")),
                    row(
                        127,
                        32767,
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        255,
                        65535,
                        4294967295L,
                        new BigInteger("18446744073709551615"),
                        Float.NaN,
                        1e300,
                        true,
                        "a\u0000\u0001é",
                        new byte[] {0, 1, (byte) 0xfe, (byte) 0xff},
                        UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
                        LocalDate.parse("9999-12-31"),
                        LocalDateTime.parse("9999-12-31T23:59:59"),
                        LocalDateTime.parse("2262-01-01T00:00:00.999"),
                        LocalDateTime.parse("9999-12-31T23:59:59.999999"),
                        LocalDateTime.parse("2262-04-11T23:47:16.854775806"),
                        Instant.parse("2024-02-29T12:00:00.000001Z")),
                    Collections.nCopies(COLUMNS.size(), null),
                    row(
                        1,
                        2,
                        3,
                        4L,
                        5,
                        6,
                        7L,
                        BigInteger.valueOf(8),
                        9.5f,
                        10.25,
                        true,
                        "gone",
                        new byte[] {9},
                        UUID.randomUUID(),
                        LocalDate.EPOCH,
                        LocalDateTime.parse("1970-01-01T00:00:00"),
                        LocalDateTime.parse("1970-01-01T00:00:00"),
                        LocalDateTime.parse("1970-01-01T00:00:00"),
                        LocalDateTime.parse("1970-01-01T00:00:00"),
                        Instant.EPOCH)));
          });
      catalog.commit(tx -> tx.deleteRowInline(table[0], 3));
      for (InlinedRows.Row r : catalog.snapshot().inlinedRows(table[0]).rows()) {
        List<IndexKeyValue> values = new ArrayList<>();
        List<Object> cells = r.typedValues();
        for (int i = 0; i < COLUMNS.size(); i++) {
          values.add(InlinedIndexValues.of(COLUMNS.get(i)[1], cells.get(i)));
        }
        ours.put(r.rowId(), key(values));
      }
      assertEquals(3, ours.size(), "three live rows");
    }
    List<String> args = new ArrayList<>(List.of("index-expect", lake.toString(), "s", "t"));
    COLUMNS.forEach(c -> args.add(c[0]));
    JsonNode crate = JsonTrees.parse(RustOracle.locate().run(args.toArray(String[]::new)));
    Map<Long, String> theirs = new TreeMap<>();
    for (JsonNode e : crate) {
      List<IndexKeyValue> values = new ArrayList<>();
      e.get("values").forEach(v -> values.add(IndexJson.value(v)));
      theirs.put(e.get("row_id").asLong(), key(values));
    }
    assertEquals(theirs, ours);
  }

  @Test
  void decimalsTimesAndNestedTypes_areNotIndexable() {
    for (String type : List.of("decimal(9,2)", "time", "interval", "struct", "list", "json")) {
      assertThrows(InvalidArgumentException.class, () -> InlinedIndexValues.of(type, 1), type);
    }
    assertThrows(InvalidArgumentException.class, () -> InlinedIndexValues.of("int32", "1"));
  }

  /** The canonical key of {@code values} under an all-ascending index, in hexadecimal. */
  private static String key(List<IndexKeyValue> values) {
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < values.size(); i++) {
      ids.add(i);
    }
    IndexInfo all =
        new IndexInfo(
            1,
            1,
            1,
            "all",
            ids,
            false,
            List.of(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            OptionalLong.empty(),
            Optional.empty());
    return HexFormat.of().formatHex(IndexKeyEncoder.canonical(all, values).bytes());
  }
}
