package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code moraine log}, {@code tables} and {@code files} on the demo's lake: what each prints, in
 * text and in JSON, at the head and at an earlier snapshot; bad input is one line on standard error
 * and exit status 1; and the lake is left exactly as it was.
 */
class InspectCommandsTest {
  @TempDir Path dir;
  private Path lake;

  @BeforeEach
  void demo() {
    lake = dir.resolve("lake");
    assertEquals(0, run("demo", "--dir", lake.toString(), "--files", "4", "--rows", "10").status());
  }

  private static SortedMap<String, String> tree(Path root) throws IOException {
    SortedMap<String, String> entries = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        entries.put(root.relativize(p).toString(), a.size() + " " + a.lastModifiedTime());
      }
    }
    return entries;
  }

  private static void assertRefused(Run run, String command, String part) {
    assertEquals(FailureReport.FAILED, run.status(), run.out() + run.err());
    assertEquals("", run.out());
    String[] lines = run.err().strip().split("\\R");
    assertEquals(1, lines.length, run.err());
    assertTrue(lines[0].startsWith("moraine " + command + ": "), lines[0]);
    assertTrue(lines[0].contains(part), lines[0]);
  }

  @Test
  void log_listsEverySnapshot_inTextAndJson() throws IOException {
    SortedMap<String, String> before = tree(lake);
    Run text = run("log", lake.toString());
    assertEquals(0, text.status(), text.err());
    String[] lines = text.out().strip().split("\\R");
    assertEquals(6, lines.length, text.out()); // 0 (bootstrap), 1 (schema and table), 2..5 (files)
    assertTrue(lines[0].startsWith("0  "), lines[0]);
    assertTrue(lines[5].startsWith("5  ") && lines[5].contains("inserted_into_table:"), lines[5]);

    Run json = run("log", lake.toString(), "--json", "--at", "3");
    assertEquals(0, json.status(), json.err());
    assertEquals(1, json.out().strip().split("\\R").length);
    assertTrue(json.out().startsWith("{\"snapshots\":[{"), json.out());
    assertEquals(4, json.out().split("\"snapshot_id\":").length - 1, json.out());
    assertEquals(before, tree(lake), "log wrote nothing");
  }

  @Test
  void tables_andFiles_atTheHeadAndAtASnapshot() throws IOException {
    SortedMap<String, String> before = tree(lake);
    Run tables = run("tables", lake.toString());
    assertEquals(0, tables.status(), tables.err());
    assertTrue(tables.out().contains("tables at snapshot 5: 1"), tables.out());
    assertTrue(tables.out().contains("demo.events (id "), tables.out());
    assertTrue(tables.out().contains("40 rows, 4 data files, 0 inlined rows"), tables.out());
    assertTrue(tables.out().contains("id int64, city varchar, amount float64"), tables.out());

    Run early = run("tables", lake.toString(), "--at", "3", "--json");
    assertEquals(0, early.status(), early.err());
    assertTrue(early.out().contains("\"snapshot_id\":3"), early.out());
    assertTrue(early.out().contains("\"rows\":20"), early.out());
    assertTrue(early.out().contains("\"data_files\":2"), early.out());

    Run files = run("files", lake.toString(), "--table", "demo.events");
    assertEquals(0, files.status(), files.err());
    assertTrue(files.out().contains("data files at snapshot 5: 4"), files.out());
    assertEquals(4, files.out().split("10 rows, ").length - 1, files.out());

    Run json = run("files", lake.toString(), "--json", "--at", "2");
    assertEquals(0, json.status(), json.err());
    assertEquals(1, json.out().split("\"data_file_id\":").length - 1, json.out());
    assertTrue(json.out().contains("\"row_id_start\":0"), json.out());
    assertEquals(before, tree(lake), "tables and files wrote nothing");
  }

  @Test
  void census_countsTheKeyspaceBySubspaceAndKind() throws IOException {
    SortedMap<String, String> before = tree(lake);
    Run text = run("census", lake.toString());
    assertEquals(0, text.status(), text.err());
    assertTrue(text.out().startsWith("census at snapshot 5 (batch "), text.out());
    for (String part : new String[] {"sys", "snapshot", "current", "  data_file", "changelog"}) {
      assertTrue(text.out().contains("\n" + part + " "), part + " in " + text.out());
    }
    assertTrue(text.out().contains("6 snapshots retained; 0 ended versions"), text.out());
    assertTrue(text.out().contains("0 files scheduled for deletion"), text.out());

    Run json = run("census", lake.toString(), "--json");
    assertEquals(0, json.status(), json.err());
    assertTrue(json.out().contains("\"snapshots_retained\":6"), json.out());
    assertTrue(
        json.out().contains("\"keys\":4,\"name\":\"data_file\"}"),
        "four data files: " + json.out());
    assertTrue(json.out().contains("\"keys\":6,\"kinds\":[],\"name\":\"snapshot\"}"), json.out());
    assertEquals(before, tree(lake), "census wrote nothing");
    assertRefused(run("census", dir.resolve("nothing").toString()), "census", "no lake at");
  }

  @Test
  void maintenanceStatus_listsTheRecordedPasses() throws IOException {
    Run none = run("maintenance", "status", lake.toString());
    assertEquals(0, none.status(), none.err());
    assertEquals("no maintenance passes recorded", none.out().strip());
    SlateStoreProvider provider =
        new SlateStoreProvider(
            StoreConfig.of(ObjectStoreSpec.localDirectory(lake), "")
                .withSettings(StoreSettings.defaults().withFlushTimerOff()));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.runMaintenance(
          MaintenancePolicy.every(Duration.ofHours(1)).keepingNewestSnapshots(2));
    }
    SortedMap<String, String> before = tree(lake);
    Run text = run("maintenance", "status", lake.toString());
    assertEquals(0, text.status(), text.err());
    assertTrue(text.out().startsWith("maintenance passes recorded: 1 (newest first)"), text.out());
    assertTrue(text.out().contains("  manual\n"), text.out());
    assertTrue(text.out().contains("  expire   ran      expired 4 snapshots"), text.out());
    assertTrue(text.out().contains("  merge    skipped  not configured"), text.out());
    Run json = run("maintenance", "status", lake.toString(), "--json");
    assertEquals(0, json.status(), json.err());
    assertTrue(json.out().contains("\"trigger\":\"manual\""), json.out());
    assertEquals(before, tree(lake), "status wrote nothing");
  }

  @Test
  void scan_printsJsonToo() {
    Run json = run("scan", "-d", lake.toString(), "--json", "--limit", "3");
    assertEquals(0, json.status(), json.err());
    assertEquals(1, json.out().strip().split("\\R").length, json.out());
    assertTrue(json.out().startsWith("{\"keys\":[{"), json.out());
    assertEquals(3, json.out().split("\"value_bytes\":").length - 1, json.out());
  }

  @Test
  void badInput_isOneLine() {
    assertRefused(run("log", dir.resolve("nothing").toString()), "log", "no lake at");
    assertRefused(run("tables", lake.toString(), "--at", "x"), "tables", "--at must be");
    assertRefused(run("tables", lake.toString(), "--at", "99"), "tables", "99");
    assertRefused(run("files", lake.toString(), "--table", "demo.nope"), "files", "no table");
  }
}
