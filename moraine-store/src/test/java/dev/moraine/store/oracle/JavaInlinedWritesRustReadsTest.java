package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.Concurrently;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inlined rows written through our verbs are the crate's inlined rows: {@code moraine-oracle check}
 * opens the lake (decoding every Arrow schema record and chunk it reaches), and its dump, inlined
 * values included, equals {@link dev.moraine.core.dump.CatalogDump}'s at every snapshot id, through
 * inserts, deletes of inlined and data-file rows, an alter that starts a new schema version, and a
 * flush.
 */
class JavaInlinedWritesRustReadsTest {
  private static RustOracle oracle;

  @TempDir static Path temp;

  @BeforeAll
  static void locate() {
    oracle = RustOracle.locate();
  }

  private static List<Object> row(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** Table events (v int64, s varchar) with a data file of 10 rows, e.parquet; its id. */
  private static long createEvents(dev.moraine.core.catalog.Transaction tx) {
    long id =
        tx.createTable(
            0, "events", List.of(ColumnDef.of("v", "int64"), ColumnDef.of("s", "varchar")));
    tx.registerDataFile(id, NewDataFile.parquet("e.parquet", 10, 400, 90));
    return id;
  }

  @Test
  void inlinedWrites_readTheSameInTheCrate_atEverySnapshot() throws Exception {
    Path lake = temp.resolve("inlined");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[2];
      // 1: a table with every type the dump renders, and rows inlined in the same commit.
      catalog.commit(
          tx -> {
            t[0] =
                tx.createTable(
                    0,
                    "kinds",
                    List.of(
                        ColumnDef.of("i8", "int8"),
                        ColumnDef.of("i16", "int16"),
                        ColumnDef.of("i32", "int32"),
                        ColumnDef.of("i64", "int64"),
                        ColumnDef.of("u8", "uint8"),
                        ColumnDef.of("u16", "uint16"),
                        ColumnDef.of("u32", "uint32"),
                        ColumnDef.of("u64", "uint64"),
                        ColumnDef.of("flag", "boolean"),
                        ColumnDef.of("name", "varchar")));
            tx.insertInlined(
                t[0],
                List.of(
                    row(
                        (byte) -128,
                        Short.MIN_VALUE,
                        Integer.MIN_VALUE,
                        Long.MIN_VALUE,
                        255,
                        65_535,
                        4_294_967_295L,
                        new BigInteger("18446744073709551615"),
                        true,
                        "żółw \uD83D\uDC22"),
                    row(null, null, null, null, null, null, null, null, null, null)));
          });
      // 2: a second table, a data file, and rows inlined after it.
      catalog.commit(
          tx -> {
            t[1] = createEvents(tx);
          });
      catalog.commit(tx -> tx.insertInlined(t[1], List.of(row(1L, "a"), row(2L, "b"))));
      catalog.commit(
          tx -> {
            tx.insertInlined(t[1], List.of(row(3L, "c")));
            tx.insertInlined(t[1], List.of(row(4L, "d"), row(5L, null)));
            tx.insertInlined(t[0], List.of(row(1, 2, 3, 4L, 5, 6, 7L, 8L, false, "")));
          });
      // 5: deletes of an inlined row and of a data-file row in one commit.
      catalog.commit(
          tx -> {
            tx.deleteRowInline(t[1], 11);
            tx.deleteRowInline(t[1], 4);
          });
      catalog.commit(tx -> tx.deleteRowInline(t[0], 1));
      // 7: an alter starts schema version 2 of events; rows inline under it.
      catalog.commit(tx -> tx.addColumn(t[1], ColumnDef.of("n", "int32")));
      catalog.commit(tx -> tx.insertInlined(t[1], List.of(row(6L, "f", 60))));
      // 9: kinds is flushed: three rows, one of them deleted while inlined.
      catalog.commit(
          tx ->
              tx.flushInlined(
                  t[0],
                  InlineFlush.of(NewDataFile.parquet("kinds-flushed.parquet", 3, 900, 300))
                      .withRowDeletes(
                          FlushDeleteFile.parquet("kinds-flushed-delete.parquet", 200, 80))));
      long last =
          catalog.commit(
              tx -> tx.insertInlined(t[0], List.of(row(9, 9, 9, 9L, 9, 9, 9L, 9L, true, "after"))));
      assertEquals(10, last);
      assertTrue(catalog.snapshot().inlinedRows(t[0]).rows().size() == 1);
    }
    assertSameAtEverySnapshot(lake, 10);
    // The crate decoded the rows themselves, not only their absence.
    JsonNode head = Lakes.lastOf(JsonTrees.parse(oracle.dump(lake)).get("snapshots"));
    List<String> seen = new ArrayList<>();
    for (JsonNode table : head.get("tables")) {
      for (JsonNode r : table.get("inlined_rows")) {
        seen.add(table.get("name").asText() + " " + r.get("row_id") + " " + r.get("values"));
      }
    }
    assertEquals(
        List.of(
            "kinds 3 [9,9,9,9,9,9,9,9,true,\"after\"]",
            "events 10 [1,\"a\"]",
            "events 12 [3,\"c\"]",
            "events 13 [4,\"d\"]",
            "events 14 [5,null]",
            "events 15 [6,\"f\",60]"),
        seen);
  }

  /**
   * A flush into a file per schema version and per partition (RFC 0004 §3): rows inlined before the
   * table was partitioned, rows inlined after into two partitions, one deleted inline, flushed as
   * three parts, the partitioned ones with non-consecutive row ids. The crate reads the lake as
   * Java does at every snapshot.
   */
  @Test
  void aFlushIntoAFilePerVersionAndPartition_readsTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("partitioned-flush");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(
          tx ->
              tx.createTable(
                  0, "p", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
      catalog.commit(tx -> tx.insertInlined(1, List.of(row(0, "pre"))));
      catalog.commit(
          tx ->
              tx.setPartitionKey(
                  1, List.of(dev.moraine.core.catalog.model.PartitionKey.identity(2))));
      catalog.commit(
          tx -> tx.insertInlined(1, List.of(row(1, "x"), row(2, "y"), row(3, "x"), row(4, "y"))));
      catalog.commit(tx -> tx.deleteRowInline(1, 3));
      long last =
          catalog.commit(
              tx ->
                  tx.flushInlined(
                      1,
                      InlineFlush.ofParts(
                          List.of(
                              InlineFlush.Part.of(
                                  NewDataFile.parquet("pre.parquet", 1, 400, 100), List.of(0L)),
                              InlineFlush.Part.of(
                                      NewDataFile.parquet("b=x/f.parquet", 2, 400, 100)
                                          .withPartitionValues(List.of("x")),
                                      List.of(1L, 3L))
                                  .withRowDeletes(
                                      FlushDeleteFile.parquet("b=x/f-delete.parquet", 200, 80)),
                              InlineFlush.Part.of(
                                  NewDataFile.parquet("b=y/f.parquet", 2, 400, 100)
                                      .withPartitionValues(List.of("y")),
                                  List.of(2L, 4L))))));
      assertEquals(6, last);
      assertEquals(3, catalog.snapshot().dataFiles(1).size());
    }
    assertSameAtEverySnapshot(lake, 6);
  }

  /**
   * The registry of inlined-data tables as the crate lists it (its {@code
   * inline_registered_tables}, behind the {@code ducklake_inlined_data_tables} it hands DuckDB)
   * equals Java's after every step: a table created and re-shaped twice without rows, rows inlined,
   * a flush that drops the older registrations, a table created with a limit of 0, and a dropped
   * table; and the crate reads the lake as Java does at every snapshot.
   */
  @Test
  void registeredInlinedTables_areTheOnesTheCrateLists() throws Exception {
    Path lake = temp.resolve("registry");
    List<String> steps = new ArrayList<>();
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[3];
      List<Runnable> work =
          List.of(
              () ->
                  catalog.commit(
                      tx -> {
                        t[0] = tx.createTable(0, "r", List.of(ColumnDef.of("a", "int32")));
                      }),
              () -> catalog.commit(tx -> tx.addColumn(t[0], ColumnDef.of("b", "varchar"))),
              () -> catalog.commit(tx -> tx.renameTable(t[0], "r2")),
              () ->
                  catalog.commit(tx -> tx.insertInlined(t[0], List.of(row(1, "x"), row(2, null)))),
              () ->
                  catalog.commit(
                      tx ->
                          tx.flushInlined(
                              t[0],
                              InlineFlush.of(
                                  NewDataFile.parquet("r-flushed.parquet", 2, 500, 200)))),
              () ->
                  catalog.commit(
                      tx -> {
                        t[1] = tx.createTable(0, "w", List.of(ColumnDef.of("x", "int64")));
                      }),
              () -> catalog.commit(tx -> tx.dropTable(t[1])),
              () ->
                  catalog.commit(
                      tx ->
                          tx.setOption(
                              dev.moraine.core.catalog.model.OptionScope.global(),
                              "data_inlining_row_limit",
                              "0")),
              () ->
                  catalog.commit(
                      tx -> {
                        t[2] = tx.createTable(0, "z", List.of(ColumnDef.of("x", "int64")));
                      }));
      for (Runnable step : work) {
        step.run();
        List<List<Long>> ours = new ArrayList<>();
        for (var v : catalog.snapshot().history().inlinedSchemaVersions()) {
          ours.add(List.of(v.tableId(), v.schemaVersion()));
        }
        steps.add(JsonTrees.parse(oracle.run("inline-registry", lake.toString())) + " " + ours);
      }
    }
    assertEquals(
        List.of(
            "[[1,1]] [[1, 1]]",
            "[[1,1],[1,2]] [[1, 1], [1, 2]]",
            "[[1,1],[1,2],[1,3]] [[1, 1], [1, 2], [1, 3]]",
            "[[1,1],[1,2],[1,3]] [[1, 1], [1, 2], [1, 3]]",
            "[[1,3]] [[1, 3]]",
            "[[1,3],[2,4]] [[1, 3], [2, 4]]",
            "[[1,3],[2,4]] [[1, 3], [2, 4]]",
            "[[1,3],[2,4]] [[1, 3], [2, 4]]",
            "[[1,3],[2,4]] [[1, 3], [2, 4]]"),
        steps);
    assertSameAtEverySnapshot(lake, 8);
  }

  /**
   * A data file with a row deleted inline is expired, and the flush then writes the delete file of
   * that deletion against the ended file, as stock DuckLake 1.5.5 does: a delete file whose target
   * is only in history. The crate reads the lake as we do at every snapshot, the row deleted while
   * the file was live.
   */
  @Test
  void aDeleteFileFlushedForAnExpiredDataFile_readsTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("expired");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[1];
      catalog.commit(tx -> t[0] = createEvents(tx));
      catalog.commit(tx -> tx.insertInlined(t[0], List.of(row(1L, "a"))));
      catalog.commit(tx -> tx.deleteRowInline(t[0], 4));
      long file = catalog.snapshot().dataFiles(t[0]).get(0).dataFileId();
      catalog.commit(tx -> tx.expireDataFile(t[0], file));
      long last =
          catalog.commit(
              tx ->
                  tx.flushInlined(
                      t[0],
                      InlineFlush.of(NewDataFile.parquet("e-flushed.parquet", 1, 300, 100))
                          .withFileDeletes(
                              file, FlushDeleteFile.parquet("e-delete.parquet", 200, 80))));
      assertEquals(5, last);
      assertEquals(file, catalog.snapshot().deleteFiles(t[0]).get(0).dataFileId());
    }
    assertSameAtEverySnapshot(lake, 5);
    // The crate lists the delete file at the snapshot of the deletion, against the live file.
    JsonNode at3 = JsonTrees.parse(oracle.dumpAt(lake, 3));
    assertTrue(at3.toString().contains("e-delete.parquet"), "the backdated delete file at 3");
  }

  /**
   * Decimals, a date, a time, timestamps of every precision, a timestamptz, a uuid and a blob,
   * inlined by our verbs: the crate decodes the chunks into the same values at every snapshot, and
   * what it reads at the head is the values written (dump format §6.3: decimals as plain text,
   * temporals as their stored counts, blobs as hex), an updated row's new version included; once
   * the table is dropped, the snapshots before the drop still read its rows.
   */
  @Test
  void furtherInlinedTypes_readTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("typed");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[1];
      catalog.commit(
          tx -> {
            t[0] =
                tx.createTable(
                    0,
                    "typed",
                    List.of(
                        ColumnDef.of("d", "decimal(9,2)"),
                        ColumnDef.of("f", "decimal(38,10)"),
                        ColumnDef.of("dt", "date"),
                        ColumnDef.of("tm", "time"),
                        ColumnDef.of("ts", "timestamp"),
                        ColumnDef.of("tsz", "timestamptz"),
                        ColumnDef.of("ts_s", "timestamp_s"),
                        ColumnDef.of("ts_ms", "timestamp_ms"),
                        ColumnDef.of("ts_ns", "timestamp_ns"),
                        ColumnDef.of("u", "uuid"),
                        ColumnDef.of("bl", "blob")));
            tx.insertInlined(
                t[0],
                List.of(
                    row(
                        new BigDecimal("1234567.89"),
                        new BigDecimal("12345678901234567890.0123456789"),
                        LocalDate.of(2024, 2, 29),
                        LocalTime.of(13, 45, 1, 123_456_000),
                        LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123_456_000),
                        Instant.parse("2024-02-29T13:45:01.123456Z"),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 1),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_000_000),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_456_789),
                        UUID.fromString("0193a1b2-0000-7000-8000-000000000001"),
                        new byte[] {(byte) 0xaa, 0}),
                    row(null, null, null, null, null, null, null, null, null, null, null)));
          });
      catalog.commit(
          tx ->
              tx.insertInlined(
                  t[0],
                  List.of(
                      row(
                          new BigDecimal("-0.01"),
                          new BigDecimal("-1.5"),
                          LocalDate.of(1969, 12, 31),
                          LocalTime.MIDNIGHT,
                          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                          Instant.parse("1969-12-31T23:59:59Z"),
                          LocalDateTime.of(1969, 12, 31, 23, 59, 59),
                          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
                          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                          UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
                          new byte[0]))));
      catalog.commit(tx -> tx.deleteRowInline(t[0], 1));
      // 4: an update re-inlines row 2 under its id; the crate ends the old version there.
      catalog.commit(
          tx ->
              tx.updateRowInline(
                  t[0],
                  2,
                  row(
                      new BigDecimal("7"),
                      null,
                      null,
                      null,
                      null,
                      null,
                      null,
                      null,
                      null,
                      null,
                      new byte[] {1})));
      // 5: the table is dropped; its inlined rows stay for reads of earlier snapshots.
      catalog.commit(tx -> tx.dropTable(t[0]));
    }
    assertSameAtEverySnapshot(lake, 5);
    assertEquals(List.of(), rustRows(oracle.dump(lake)), "the dropped table is not at the head");
    assertEquals(
        "2 [\"-0.01\",\"-1.5000000000\",-1,0,-1,-1000000,-1,-1,-1,"
            + "\"ffffffff-ffff-ffff-ffff-ffffffffffff\",\"\"]",
        rustRows(oracle.dumpAt(lake, 3)).get(1),
        "before the update, the values before the epoch");
    assertEquals(
        List.of(
            "0 [\"1234567.89\",\"12345678901234567890.0123456789\",19782,49501123456,"
                + "1709214301123456,1709214301123456,1704067201,1704067201123,"
                + "1704067201123456789,\"0193a1b2-0000-7000-8000-000000000001\",\"aa00\"]",
            "2 [\"7.00\",null,null,null,null,null,null,null,null,null,\"01\"]"),
        rustRows(oracle.dumpAt(lake, 4)));
  }

  /**
   * Struct rows (a struct, a null struct, null members, an update) read by the crate's Arrow reader
   * as by ours: each struct an object from member name to member value.
   */
  @Test
  void structRows_readTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("struct");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[1];
      catalog.commit(
          tx -> {
            t[0] =
                tx.createTable(
                    0,
                    "st",
                    List.of(
                        ColumnDef.of("id", "int64"),
                        ColumnDef.nested(
                            "s",
                            "struct",
                            ColumnDef.of("a", "int32"),
                            ColumnDef.of("b", "varchar"),
                            ColumnDef.of("d", "decimal(9,2)"))));
            tx.insertInlined(
                t[0],
                List.of(
                    row(1L, Map.of("a", -3, "b", "x", "d", new BigDecimal("1.50"))),
                    row(2L, null),
                    row(3L, Map.of("b", "y"))));
          });
      catalog.commit(tx -> tx.updateRowInline(t[0], 1, row(2L, Map.of("a", 5))));
    }
    assertSameAtEverySnapshot(lake, 2);
    assertEquals(
        List.of(
            "0 [1,{\"a\":-3,\"b\":\"x\",\"d\":\"1.50\"}]",
            "1 [2,{\"a\":5,\"b\":null,\"d\":null}]",
            "2 [3,{\"a\":null,\"b\":\"y\",\"d\":null}]"),
        rustRows(oracle.dumpAt(lake, 2)).stream().sorted().toList());
    assertEquals("1 [2,null]", rustRows(oracle.dumpAt(lake, 1)).get(1));
  }

  /**
   * List rows (a list, a null list, an empty list, a null element) read by the crate's Arrow reader
   * as by ours: each list an array of its elements.
   */
  @Test
  void listRows_readTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("list");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      long[] t = new long[1];
      catalog.commit(
          tx -> {
            t[0] =
                tx.createTable(
                    0,
                    "li",
                    List.of(
                        ColumnDef.nested("li", "list", ColumnDef.of("element", "int32")),
                        ColumnDef.nested("ls", "list", ColumnDef.of("element", "varchar"))));
            tx.insertInlined(
                t[0],
                List.of(
                    row(List.of(3, -2, 9), List.of("b", "a")),
                    row(null, List.of()),
                    row(Arrays.asList(null, 5), null)));
          });
      catalog.commit(tx -> tx.insertInlined(t[0], List.of(row(List.of(), List.of("z")))));
    }
    assertSameAtEverySnapshot(lake, 2);
    assertEquals(
        List.of("0 [[3,-2,9],[\"b\",\"a\"]]", "1 [null,[]]", "2 [[null,5],null]", "3 [[],[\"z\"]]"),
        rustRows(oracle.dumpAt(lake, 2)));
  }

  /**
   * Map rows (a map, a null map, an empty map, a null value) read by the crate's Arrow reader as by
   * ours: each map an array of its entries as key-value objects, in entry order.
   */
  @Test
  void mapRows_readTheSameInTheCrate() throws Exception {
    Path lake = temp.resolve("map");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      Map<Object, Object> kj = new java.util.LinkedHashMap<>();
      kj.put("k", 5);
      kj.put("j", null);
      catalog.commit(
          tx -> {
            long t =
                tx.createTable(
                    0,
                    "mt",
                    List.of(
                        ColumnDef.nested(
                            "m",
                            "map",
                            ColumnDef.of("key", "varchar"),
                            ColumnDef.of("value", "int32"))));
            tx.insertInlined(t, List.of(row(kj), row((Object) null), row(Map.of())));
          });
    }
    assertSameAtEverySnapshot(lake, 1);
    assertEquals(
        List.of(
            "0 [[{\"key\":\"k\",\"value\":5},{\"key\":\"j\",\"value\":null}]]",
            "1 [null]",
            "2 [[]]"),
        rustRows(oracle.dumpAt(lake, 1)));
  }

  /** The inlined rows of the last snapshot of a dump, as "rowId values". */
  private static List<String> rustRows(String dump) throws Exception {
    JsonNode last = Lakes.lastOf(JsonTrees.parse(dump).get("snapshots"));
    List<String> seen = new ArrayList<>();
    for (JsonNode table : last.get("tables")) {
      for (JsonNode r : table.get("inlined_rows")) {
        seen.add(r.get("row_id") + " " + r.get("values"));
      }
    }
    return seen;
  }

  @Test
  void eightConcurrentInliners_writeALakeTheCrateReadsTheSame() throws Exception {
    Path lake = temp.resolve("concurrent-inline");
    try (KvStore store = Lakes.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(
          tx ->
              tx.createTable(
                  0, "events", List.of(ColumnDef.of("v", "int64"), ColumnDef.of("w", "varchar"))));
      Concurrently.run(
          8,
          writer -> {
            for (int i = 0; i < 3; i++) {
              long v = writer * 100L + i;
              redriving(
                  catalog, tx -> tx.insertInlined(1, List.of(row(v, "w" + writer), row(-v, null))));
            }
          });
      assertEquals(1 + 8 * 3, catalog.head().snapshotId());
      assertEquals(48, catalog.snapshot().inlinedRows(1).rows().size());
    }
    assertSameAtEverySnapshot(lake, 25);
  }

  private static void redriving(Catalog catalog, dev.moraine.core.catalog.CommitBody body) {
    for (int drive = 1; ; drive++) {
      try {
        catalog.commit(body);
        return;
      } catch (RetryBudgetExhaustedException lostTenRaces) {
        if (drive == 20) {
          throw lostTenRaces;
        }
      }
    }
  }

  private static void assertSameAtEverySnapshot(Path lake, long expectedHead) throws Exception {
    String rust = oracle.check(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle check", rust, "CatalogDump", java);
    JsonNode dump = JsonTrees.parse(rust);
    assertEquals(expectedHead, dump.get("head").asLong());
    for (long id = 0; id <= expectedHead; id++) {
      String rustAt = oracle.dumpAt(lake, id);
      String javaAt = Lakes.javaDump(lake, id);
      JsonTrees.assertSameTree(
          "moraine-oracle dump --at " + id, rustAt, "CatalogDump at " + id, javaAt);
    }
  }
}
