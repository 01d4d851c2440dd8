package dev.moraine.cli;

import static dev.moraine.cli.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.duckdb.reference.DuckLakeExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code moraine export}: the demo's lake, exported, is what stock DuckDB with the DuckLake
 * extension reads, at the head and at every snapshot; a second run after more commits brings the
 * file forward; bad input is one line on standard error and exit status 1.
 */
class ExportCommandTest {
  @TempDir Path dir;

  private static void assertRefused(Run run, String expectedPart) {
    assertEquals(FailureReport.FAILED, run.status(), run.out() + run.err());
    String[] lines = run.err().strip().split("\\R");
    assertEquals(1, lines.length, run.err());
    assertTrue(lines[0].startsWith("moraine export: "), lines[0]);
    assertTrue(lines[0].contains(expectedPart), lines[0]);
  }

  /** Stock DuckDB with the DuckLake extension, the export attached read-only as {@code lake}. */
  private static Connection attach(Path export, Path dataPath) throws Exception {
    return DuckLakeExtension.attachReadOnly(export, dataPath + "/");
  }

  private static List<String> row(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      assertTrue(rs.next(), sql);
      List<String> out = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getString(i));
      }
      return out;
    }
  }

  @Test
  void theDemosLake_readsInDuckDb_atEverySnapshot_andFollowsTheLake() throws Exception {
    Path lake = dir.resolve("lake");
    assertEquals(
        0, run("demo", "--dir", lake.toString(), "--files", "12", "--rows", "40").status());
    Path file = dir.resolve("demo.ducklake");
    Run export = run("export", lake.toString(), file.toString());
    assertEquals(0, export.status(), export.out() + export.err());
    assertTrue(export.out().contains("created " + file + " at snapshot 13"), export.out());
    assertTrue(
        export.out().contains("ATTACH 'ducklake:" + file + "' AS lake (READ_ONLY);"), export.out());

    Path data = lake.resolve("data");
    String files = "read_parquet('" + data + "/demo/events/*.parquet')";
    try (Connection duck = attach(file, data)) {
      // What DuckDB reads through the catalog is what the demo's Parquet files hold.
      List<String> direct = row(duck, "SELECT count(*), sum(id), sum(amount) FROM " + files);
      assertEquals("480", direct.get(0));
      assertEquals(
          direct, row(duck, "SELECT count(*), sum(id), sum(amount) FROM lake.demo.events"));
      for (int v = 1; v <= 13; v++) {
        assertEquals(
            List.of(Integer.toString(40 * (v - 1))),
            row(duck, "SELECT count(*) FROM lake.demo.events AT (VERSION => " + v + ")"),
            "snapshot " + v);
      }
      assertEquals(List.of("14"), row(duck, "SELECT count(*) FROM ducklake_snapshots('lake')"));
    }

    // The lake moves on; the export follows it, and says so.
    assertEquals(0, run("demo", "--dir", lake.toString(), "--files", "3", "--rows", "40").status());
    Run again = run("export", lake.toString(), file.toString());
    assertEquals(0, again.status(), again.out() + again.err());
    assertTrue(
        again.out().contains("updated " + file + " at snapshot 16 (from snapshot 13)"),
        again.out());
    Run same = run("export", lake.toString(), file.toString());
    assertTrue(same.out().contains("already holds snapshot 16"), same.out());
    try (Connection duck = attach(file, data)) {
      assertEquals(List.of("600"), row(duck, "SELECT count(*) FROM lake.demo.events"));
    }

    // --at exports an earlier snapshot into a new file.
    Path early = dir.resolve("early.ducklake");
    Run at = run("export", lake.toString(), early.toString(), "--at", "5");
    assertEquals(0, at.status(), at.out() + at.err());
    try (Connection duck = attach(early, data)) {
      assertEquals(List.of("160"), row(duck, "SELECT count(*) FROM lake.demo.events"));
      assertEquals(List.of("6"), row(duck, "SELECT count(*) FROM ducklake_snapshots('lake')"));
    }
  }

  @Test
  void badInput_isOneLine_andWritesNothing() throws Exception {
    Path lake = dir.resolve("lake");
    Path file = dir.resolve("out.ducklake");
    assertRefused(run("export", lake.toString(), file.toString()), "no lake at");
    assertFalse(Files.exists(file));
    assertEquals(0, run("demo", "--dir", lake.toString(), "--files", "2", "--rows", "5").status());
    assertRefused(run("export", lake.toString(), file.toString(), "--at", "x"), "--at must be");
    assertRefused(run("export", lake.toString(), file.toString(), "--at", "99"), "99");
    assertFalse(Files.exists(file));
    Path text = dir.resolve("text.ducklake");
    Files.writeString(text, "hello\n");
    assertRefused(run("export", lake.toString(), text.toString()), "refused");
    assertEquals("hello\n", Files.readString(text));
    // A missing <file> is a usage error (status 2), as for every command.
    assertEquals(2, run("export", lake.toString()).status());
  }
}
