package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo on a real local-directory lake: its own expectations, and the lake it leaves read back
 * independently (files on disk, data files, row ids, snapshots).
 */
class DemoCommandTest {

  @TempDir Path dir;

  private static SlateStoreProvider provider(Path lake) {
    return new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
  }

  private static List<Path> parquetFiles(Path lake) throws IOException {
    try (Stream<Path> walk = Files.walk(lake.resolve("data"))) {
      return walk.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  @Test
  void demo_checksEveryExpectationAndLeavesTheLakeItReports() throws IOException {
    Path lake = dir.resolve("lake");
    Run run = run("demo", "--dir", lake.toString(), "--files", "24", "--rows", "50");
    assertEquals(0, run.status(), run.out() + run.err());
    assertEquals(9, DemoCommand.EXPECTATIONS);
    assertTrue(run.out().contains("OK: 9 of 9 expectations held"), run.out());
    assertEquals(DemoCommand.EXPECTATIONS, count(run.out(), "   [ok] "), run.out());
    assertEquals(0, count(run.out(), "[FAILED]"), run.out());
    assertTrue(run.out().contains("24/24 files committed"), run.out());
    // The snapshot log's first and last five entries: 0 (bootstrap), 1 (schema and table), 2..4,
    // then 21..25 (files), with the sixteen between counted.
    assertEquals(8, count(run.out(), "inserted_into_table:"), run.out());
    assertTrue(run.out().contains("   ... 16 more ..."), run.out());
    assertTrue(run.out().contains("24 commits in "), run.out());
    assertTrue(run.out().contains("commits per WAL PUT"), run.out());
    assertEquals(24, parquetFiles(lake).size());

    try (KvReader reader = provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      CatalogSnapshot head = catalog.snapshot();
      assertEquals(25, head.snapshotId());
      assertEquals(26, head.snapshotLog().size());
      long schema = head.schemaByName("demo").orElseThrow().schemaId();
      long table = head.tableByName(schema, "events").orElseThrow().tableId();
      List<DataFileInfo> files = head.dataFiles(table);
      assertEquals(24, files.size());
      assertEquals(1200, head.tableStats(table).orElseThrow().recordCount());
      assertTrue(DemoCommand.denseRowIds(files, 1200));
      for (DataFileInfo f : files) {
        assertEquals(50, f.recordCount());
        Path onDisk = lake.resolve("data/demo/events").resolve(f.path());
        assertEquals(Files.size(onDisk), f.fileSizeBytes());
        assertTrue(f.footerSize() > 0 && f.footerSize() < f.fileSizeBytes(), f.toString());
      }
      // Three columns per file; city is null in every fifth row.
      assertEquals(72, head.fileColumnStats(table).size());
      long cityNulls =
          head.fileColumnStats(table).stream()
              .filter(s -> s.nullCount() > 0)
              .mapToLong(s -> s.nullCount())
              .sum();
      assertEquals(24 * 10, cityNulls);
    }
  }

  @Test
  void demoLake_dumpsTheSameInTheRustImplementation() throws Exception {
    Path lake = dir.resolve("lake");
    assertEquals(0, run("demo", "-d", lake.toString(), "--files", "8", "--rows", "20").status());
    Run java = run("dump", lake.toString());
    assertEquals(0, java.status(), java.err());
    assertTrue(java.out().contains("\"head\":9"), java.out());

    Path binary = OracleBinary.path();
    assertTrue(Files.isExecutable(binary), "moraine-oracle is not built at " + binary);
    Path rustOut = dir.resolve("rust.json");
    Process oracle =
        new ProcessBuilder(binary.toString(), "dump", lake.toString())
            .redirectOutput(rustOut.toFile())
            .redirectError(dir.resolve("rust.err").toFile())
            .start();
    assertTrue(oracle.waitFor(2, TimeUnit.MINUTES), "moraine-oracle did not finish");
    assertEquals(0, oracle.exitValue(), Files.readString(dir.resolve("rust.err")));
    assertEquals(java.out().strip(), Files.readString(rustOut).strip());
  }

  @Test
  void demo_runsAgainOnItsOwnLakeAndAddsToIt() {
    Path lake = dir.resolve("lake");
    assertEquals(0, run("demo", "-d", lake.toString(), "--files", "4", "--rows", "10").status());
    Run again = run("demo", "-d", lake.toString(), "--files", "4", "--rows", "10");
    assertEquals(0, again.status(), again.out() + again.err());
    assertTrue(again.out().contains("existing lake"), again.out());
    assertTrue(again.out().contains("[ok] the table holds 8 data files"), again.out());
    assertTrue(again.out().contains("[ok] the table's record count is 80"), again.out());
  }

  private static DataFileInfo file(long id, long rowIdStart, long records) {
    return new DataFileInfo(
        1,
        id,
        1,
        OptionalLong.empty(),
        "f" + id,
        true,
        "parquet",
        records,
        100,
        10,
        OptionalLong.of(rowIdStart),
        OptionalLong.empty(),
        Optional.empty(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        List.of());
  }

  @Test
  void denseRowIds_acceptsOnlyRangesThatTileZeroToTheRowCount() {
    assertTrue(DemoCommand.denseRowIds(List.of(file(2, 10, 5), file(1, 0, 10)), 15));
    assertFalse(DemoCommand.denseRowIds(List.of(file(1, 0, 10), file(2, 11, 5)), 16), "gap");
    assertFalse(DemoCommand.denseRowIds(List.of(file(1, 0, 10), file(2, 9, 5)), 14), "overlap");
    assertFalse(DemoCommand.denseRowIds(List.of(file(1, 0, 10)), 11), "short of the count");
    assertFalse(DemoCommand.denseRowIds(List.of(), 0), "an empty table");
  }

  @Test
  void demo_underAMissingParent_isOneLineAndCreatesNothing() {
    Path lake = dir.resolve("no/such/lake");
    Run run = run("demo", "-d", lake.toString());
    assertFailure(run, "its parent directory does not exist");
    assertFalse(Files.exists(dir.resolve("no")));
  }

  @Test
  void demo_inADirectoryHoldingSomethingElse_isOneLineAndChangesNothing() throws IOException {
    Path other = Files.createDirectory(dir.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "not a lake");
    assertFailure(run("demo", "-d", other.toString()), "no SlateDB database");
    try (Stream<Path> entries = Files.list(other)) {
      assertEquals(List.of(other.resolve("notes.txt")), entries.toList());
    }
  }

  @Test
  void demo_onAFile_isOneLine() throws IOException {
    Path file = Files.writeString(dir.resolve("file"), "x");
    assertFailure(run("demo", "-d", file.toString()), "not a directory");
  }

  @Test
  void demo_onALakeOfAnotherFormat_isOneLineAndWritesNothing() {
    Path lake = dir.resolve("old");
    byte[] formatKey = KeyCodec.encode(SysKey.FORMAT);
    // A lake stamped with format 8, which this library does not read.
    byte[] stamp =
        ValueCodec.encode(
            SysKey.FORMAT,
            FormatValue.newBuilder().setFormatVersion(8).setWriterVersion("older").build());
    try (KvStore store = provider(lake).openWriter()) {
      store.write(new WriteBatch().put(formatKey, stamp));
      store.flushWal();
    }
    Run run = run("demo", "-d", lake.toString());
    assertFailure(run, "the store is format 8");
    try (KvStore store = provider(lake).openWriter()) {
      assertArrayEquals(stamp, store.get(formatKey), "stamp unchanged");
      assertNull(store.get(KeyCodec.encode(SysKey.HEAD)), "no catalog was bootstrapped");
    }
  }

  @Test
  void badCounts_areOneLine() {
    assertFailure(run("demo", "-d", dir.resolve("x").toString(), "--threads", "0"), "at least 1");
    assertFalse(Files.exists(dir.resolve("x")));
  }

  private static void assertFailure(Run run, String expectedPart) {
    assertEquals(FailureReport.FAILED, run.status(), run.out() + run.err());
    String[] lines = run.err().strip().split("\\R");
    assertEquals(1, lines.length, run.err());
    assertTrue(lines[0].startsWith("moraine demo: "), lines[0]);
    assertTrue(lines[0].contains(expectedPart), lines[0]);
    assertFalse(run.err().contains("\tat "), run.err());
  }

  private static int count(String text, String part) {
    Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
