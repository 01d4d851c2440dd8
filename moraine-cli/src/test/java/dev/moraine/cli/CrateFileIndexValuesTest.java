package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.kv.KvStore;
import dev.moraine.parquet.CompactionInput;
import dev.moraine.parquet.LocalFileMerger;
import dev.moraine.parquet.ParquetCompaction;
import dev.moraine.parquet.ParquetIndexValues;
import dev.moraine.parquet.ParquetInlineFlush;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
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
 * moraine-parquet's {@link ParquetIndexValues} against the Rust crate: a Java writer lays out a
 * table of every indexable type in Parquet files written by moraine-parquet (two inline flushes,
 * whose files carry DuckLake's row-id column, merged into one file that does not, then a third
 * flush with a row deleted inline), and the crate derives, from those files, the entries of an
 * index over all the columns ({@code moraine-oracle index-expect-files}, its {@code
 * scoped_backfill_entries}). Java's keys for the live rows must be the crate's, byte for byte, and
 * for exactly those rows.
 */
class CrateFileIndexValuesTest {
  @TempDir Path dir;

  private static final List<String[]> COLUMNS =
      List.of(
          new String[] {"i8", "int8"},
          new String[] {"i16", "int16"},
          new String[] {"i32", "int32"},
          new String[] {"i64", "int64"},
          new String[] {"u8", "uint8"},
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

  private static List<Object> row(int k) {
    return new ArrayList<>(
        Arrays.asList(
            (k % 2 == 0 ? -1 : 1) * (k * 9 % 128),
            -32768 + k,
            Integer.MIN_VALUE + k,
            k == 3 ? Long.MAX_VALUE : -k,
            255 - k,
            4294967295L - k,
            k == 1 ? new BigInteger("18446744073709551615") : BigInteger.valueOf(k),
            k == 2 ? Float.NaN : -1.5f * k,
            k == 4 ? Double.NEGATIVE_INFINITY : 0.25 * k,
            k % 2 == 0,
            "v\u0000\u0001" + k,
            new byte[] {0, 1, (byte) 0xfe, (byte) k},
            new UUID(k * 31L, -k),
            LocalDate.parse("1960-01-01").plusDays(k * 1000L),
            LocalDateTime.parse("1969-12-31T23:59:59").plusSeconds(k * 86_400L),
            LocalDateTime.parse("1969-12-31T23:59:59.999").plusSeconds(k),
            LocalDateTime.parse("2024-02-29T12:00:00.000001").plusSeconds(k),
            LocalDateTime.parse("1999-01-01T00:00:00.000000001").plusNanos(k),
            Instant.parse("2000-01-01T00:00:00.000001Z").plusSeconds(k)));
  }

  private static List<Object> nulls() {
    return new ArrayList<>(java.util.Collections.nCopies(COLUMNS.size(), null));
  }

  @Test
  void theCrateDerivesFromJavaFiles_theKeysJavaDerives() throws Exception {
    Path lake = dir.resolve("lake");
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Map<Long, String> ours = new TreeMap<>();
    SlateStoreProvider provider =
        new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      List<ColumnDef> defs = COLUMNS.stream().map(c -> ColumnDef.of(c[0], c[1])).toList();
      long[] t = new long[1];
      catalog.commit(
          tx -> {
            t[0] = tx.createTable(tx.createSchema("s"), "t", defs);
            tx.insertInlined(t[0], List.of(row(0), row(1), nulls()));
          });
      LocalFileMerger files = LocalFileMerger.of(catalog, data);
      Path tableDir = files.tableDirectory(catalog.snapshot(), t[0]);
      Files.createDirectories(tableDir);
      flush(catalog, t[0], tableDir);
      catalog.commit(tx -> tx.insertInlined(t[0], List.of(row(2), row(3))));
      flush(catalog, t[0], tableDir);
      // The two flushed files hold rows 0 to 4 in one run: merged, they need no row-id column.
      CatalogSnapshot head = catalog.snapshot();
      List<Long> inputs = head.dataFiles(t[0]).stream().map(DataFileInfo::dataFileId).toList();
      NewDataFile merged =
          ParquetCompaction.merge(
              head.columns(t[0]),
              CompactionInput.of(head, t[0], inputs, tableDir),
              tableDir.resolve("merged.parquet"),
              "merged.parquet");
      catalog.commit(tx -> tx.mergeDataFiles(t[0], inputs, merged));
      catalog.commit(tx -> tx.insertInlined(t[0], List.of(row(4), row(5), row(6))));
      flush(catalog, t[0], tableDir);
      // Row 6 of the third file, deleted inline: the crate leaves it out, and so must Java.
      catalog.commit(tx -> tx.deleteRowInline(t[0], 6));

      head = catalog.snapshot();
      List<ColumnInfo> indexed = new ArrayList<>();
      for (String[] c : COLUMNS) {
        indexed.add(
            head.columns(t[0]).stream()
                .filter(ci -> ci.name().equals(c[0]))
                .findFirst()
                .orElseThrow());
      }
      List<DataFileInfo> live = head.dataFiles(t[0]);
      assertEquals(2, live.size(), "the merged file and the third flush's");
      assertTrue(
          live.stream().anyMatch(f -> f.path().equals("merged.parquet")),
          "the merged file is live");
      for (DataFileInfo f : live) {
        var in = CompactionInput.of(head, t[0], List.of(f.dataFileId()), tableDir).get(0);
        for (ParquetIndexValues.Row r :
            ParquetIndexValues.read(
                tableDir.resolve(f.path()), f, indexed, new HashSet<>(in.deletedPositions()))) {
          assertEquals(null, ours.put(r.rowId(), key(r.values())), "row " + r.rowId());
        }
      }
    }
    assertEquals(7, ours.size(), "eight rows, one deleted");
    assertFalse(ours.containsKey(6L));

    List<String> args =
        new ArrayList<>(List.of("index-expect-files", lake.toString(), data.toString(), "s", "t"));
    COLUMNS.forEach(c -> args.add(c[0]));
    JsonNode entries = CrateOracle.json(dir, args.toArray(String[]::new));
    Map<Long, String> theirs = new TreeMap<>();
    for (JsonNode e : entries) {
      List<IndexKeyValue> values = new ArrayList<>();
      e.get("values").forEach(v -> values.add(CrateOracle.value(v)));
      theirs.put(e.get("row_id").asLong(), key(values));
    }
    assertEquals(theirs, ours);
  }

  /**
   * A file written without field ids (the crate would find its columns through its name mapping)
   * and a file that predates a column with a non-NULL initial default are refused rather than read
   * as NULLs.
   */
  @Test
  void filesWithoutFieldIds_orPredatingADefaultedColumn_areRefused() throws Exception {
    Path file = dir.resolve("plain.parquet");
    org.apache.parquet.schema.MessageType schema =
        org.apache.parquet.schema.Types.buildMessage()
            .optional(org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64)
            .named("k")
            .named("plain");
    writeOneRow(file, schema);
    DataFileInfo info =
        new DataFileInfo(
            1,
            4,
            1,
            OptionalLong.empty(),
            "plain.parquet",
            true,
            "parquet",
            1,
            100,
            10,
            OptionalLong.of(0),
            OptionalLong.empty(),
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            List.of());
    ColumnInfo k =
        new ColumnInfo(
            1,
            1,
            1,
            1,
            "k",
            "int64",
            Optional.empty(),
            Optional.empty(),
            true,
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of());
    var noIds =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> ParquetIndexValues.read(file, info, List.of(k), java.util.Set.of()));
    assertTrue(noIds.getMessage().contains("no field ids"), noIds.getMessage());

    // The same file with the field id 1, and a column 2 added since with the default 5.
    Path withIds = dir.resolve("ids.parquet");
    org.apache.parquet.schema.MessageType idSchema =
        org.apache.parquet.schema.Types.buildMessage()
            .optional(org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64)
            .id(1)
            .named("k")
            .named("ids");
    writeOneRow(withIds, idSchema);
    ColumnInfo added =
        new ColumnInfo(
            1,
            2,
            2,
            2,
            "n",
            "int64",
            Optional.of("5"),
            Optional.of("5"),
            true,
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of());
    assertEquals(
        List.of(new ParquetIndexValues.Row(0, 0, List.of(new IndexKeyValue.Signed(7, 8)))),
        ParquetIndexValues.read(withIds, info, List.of(k), java.util.Set.of()));
    var predates =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> ParquetIndexValues.read(withIds, info, List.of(k, added), java.util.Set.of()));
    assertTrue(predates.getMessage().contains("initial default"), predates.getMessage());
  }

  /** Writes a file of {@code schema} holding one row, whose column {@code k} is 7. */
  private static void writeOneRow(Path file, org.apache.parquet.schema.MessageType schema)
      throws Exception {
    try (var writer =
        org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(
                new org.apache.parquet.io.LocalOutputFile(file))
            .withConf(new org.apache.parquet.conf.PlainParquetConfiguration())
            .withType(schema)
            .build()) {
      var row = new org.apache.parquet.example.data.simple.SimpleGroupFactory(schema).newGroup();
      row.add("k", 7L);
      writer.write(row);
    }
  }

  /** Flushes the table's inlined data with moraine-parquet's files. */
  private static void flush(Catalog catalog, long table, Path tableDir) throws Exception {
    InlineFlush flush = ParquetInlineFlush.write(catalog.snapshot(), table, tableDir).orElseThrow();
    catalog.commit(tx -> tx.flushInlined(table, flush));
  }

  /**
   * The canonical key of each of {@code values} as a one-column ascending index holds it, in
   * hexadecimal, column by column: an index over all of them holds their concatenation, and apart a
   * difference names its column.
   */
  private static String key(List<IndexKeyValue> values) {
    IndexInfo one =
        new IndexInfo(
            1,
            1,
            1,
            "one",
            List.of(1L),
            false,
            List.of(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            OptionalLong.empty(),
            Optional.empty());
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      byte[] k =
          IndexKeyEncoder.canonical(one, java.util.Collections.singletonList(values.get(i)))
              .bytes();
      columns.add(COLUMNS.get(i)[0] + "=" + HexFormat.of().formatHex(k));
    }
    return String.join(" ", columns);
  }
}
