package dev.moraine.bench;

import dev.moraine.core.catalog.CommitStatistics;
import dev.moraine.store.ObjectStoreSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Moraine against stock DuckLake, N appenders committing small appends to one shared table:
 * commits/s, p50/p99 latency, retries and failed commits, one side at a time, each row appended to
 * a CSV file. {@code moraine-bench/stock-ducklake-bench.sh} starts the PostgreSQL server and
 * S3Proxy, runs every side in one go and prints the side-by-side table ({@code summary}).
 *
 * <p>Usage: {@code StockDuckLakeBench <side> [--option value]...} with side one of
 *
 * <ul>
 *   <li>{@code stock-duckdb-file}: DuckLake with a DuckDB-file catalog ({@code --work}, {@code
 *       --ducklake-extension});
 *   <li>{@code stock-postgres}: DuckLake with a PostgreSQL catalog ({@code --pg} a libpq string
 *       without dbname, {@code --pg-database-prefix}: one empty database {@code <prefix><N>} per
 *       appender count N, {@code --ducklake-extension}, {@code --postgres-extension}, {@code
 *       --pg-log} the server's log, whose new ERROR lines are counted);
 *   <li>{@code moraine-local}: Moraine on a local directory under {@code --work}, fsync on;
 *   <li>{@code moraine-s3}: Moraine on S3 ({@code --s3-endpoint}, {@code --s3-bucket}, {@code
 *       --s3-access-key}, {@code --s3-secret-key}) with {@code --put-latency-ms} added to each PUT;
 * </ul>
 *
 * <p>and the options common to all: {@code --appenders 1,8,16,32}, {@code --rows 4} (rows per
 * commit), {@code --warmup-s 5}, {@code --measure-s 30}, {@code --progress-s 5}, {@code --csv
 * <file>}, {@code --run <label>}; for Moraine {@code --configs 0:on,100:on,0:off}, each a run of
 * its own: the flush spacing in milliseconds and whether commits wait for a published checkpoint.
 * {@code StockDuckLakeBench summary <csv> [run]} prints the table of one run.
 */
public final class StockDuckLakeBench {
  /** The CSV's columns, in order. */
  static final List<String> COLUMNS =
      List.of(
          "run",
          "side",
          "catalog",
          "store",
          "durability",
          "flush_spacing_ms",
          "publication",
          "appenders",
          "rows_per_commit",
          "warmup_s",
          "measure_s",
          "commits",
          "commits_per_s",
          "p50_ms",
          "p99_ms",
          "mean_ms",
          "max_ms",
          "retries",
          "failed",
          "log_syncs",
          "commits_per_log_sync",
          "checkpoints",
          "server_errors",
          "load1_start",
          "load1_end",
          "verified");

  private final Map<String, String> options;
  private final PrintStream out = System.out;

  private StockDuckLakeBench(Map<String, String> options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("summary")) {
      summary(Path.of(args[1]), args.length > 2 ? args[2] : null, System.out);
      return;
    }
    if (args.length < 1 || args.length % 2 != 1) {
      System.err.println("usage: StockDuckLakeBench <side> [--option value]... | summary <csv>");
      System.exit(2);
    }
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        System.err.println("StockDuckLakeBench: expected an option, got " + args[i]);
        System.exit(2);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    StockDuckLakeBench bench = new StockDuckLakeBench(options);
    switch (args[0]) {
      case "stock-duckdb-file" -> bench.stock(StockDuckLake.Kind.DUCKDB_FILE);
      case "stock-postgres" -> bench.stock(StockDuckLake.Kind.POSTGRES);
      case "moraine-local" -> bench.moraine(false);
      case "moraine-s3" -> bench.moraine(true);
      default -> {
        System.err.println("StockDuckLakeBench: unknown side " + args[0]);
        System.exit(2);
      }
    }
  }

  /** The text of a row's {@code note} column, the same on both sides. */
  static String note(int appender, long value) {
    return "appender-" + appender + "-row-" + value;
  }

  // ---- the sides ------------------------------------------------------------------------------

  private void stock(StockDuckLake.Kind kind) throws Exception {
    Path ducklake = Path.of(required("ducklake-extension"));
    Path postgresExtension =
        kind == StockDuckLake.Kind.POSTGRES ? Path.of(required("postgres-extension")) : null;
    Path pgLog = options.containsKey("pg-log") ? Path.of(options.get("pg-log")) : null;
    String side = kind == StockDuckLake.Kind.POSTGRES ? "stock-postgres" : "stock-duckdb-file";
    int rows = integer("rows", 4);
    for (int n : appenderCounts()) {
      Path dir = Path.of(required("work")).resolve(side + "-" + n);
      String conninfo =
          kind == StockDuckLake.Kind.POSTGRES
              ? required("pg") + " dbname=" + required("pg-database-prefix") + n
              : null;
      out.printf(Locale.ROOT, "%n%s, %d appender(s): opening%n", side, n);
      try (StockDuckLake lake =
          StockDuckLake.open(kind, dir, conninfo, ducklake, postgresExtension, n)) {
        String durability;
        long[] walSyncs = new long[2];
        long[] logOffsets = new long[2];
        if (kind == StockDuckLake.Kind.POSTGRES) {
          StockDuckLake.PostgresFacts facts = lake.postgresFacts();
          durability =
              "PostgreSQL WAL synced at commit (fsync="
                  + facts.fsync()
                  + "; synchronous_commit="
                  + facts.synchronousCommit()
                  + "; wal_sync_method="
                  + facts.walSyncMethod()
                  + ")";
          out.printf(Locale.ROOT, "  server: %s%n  %s%n", facts.version(), durability);
        } else {
          durability = "DuckDB WAL fsynced at commit";
        }
        out.printf(Locale.ROOT, "  DuckLake settings: %s%n", lake.retrySettings());
        Measured m =
            measure(
                side + " " + n,
                n,
                i -> lake.appender(i, rows),
                new AppendLoad.Window() {
                  @Override
                  public void opened() {
                    walSyncs[0] = walSyncs(lake, kind);
                    logOffsets[0] = size(pgLog);
                  }

                  @Override
                  public void closed() {
                    walSyncs[1] = walSyncs(lake, kind);
                    logOffsets[1] = size(pgLog);
                  }
                });
        AppendLoad.Result r = m.result();
        long retries = lake.retriesBetween(r.windowStart(), r.windowEnd());
        long[] rowsAndFiles = lake.rowsAndDataFiles();
        boolean verified =
            rowsAndFiles[0] == r.landedInRun() * rows && rowsAndFiles[1] == 0 && r.commits() > 0;
        out.printf(
            Locale.ROOT,
            "  check: the table holds %d rows (%d landed commits x %d), %d data files: %s%n",
            rowsAndFiles[0],
            r.landedInRun(),
            rows,
            rowsAndFiles[1],
            verified ? "ok" : "MISMATCH");
        Map<String, String> row = row(side, m, rows, verified);
        row.put("catalog", kind == StockDuckLake.Kind.POSTGRES ? "postgresql" : "duckdb-file");
        row.put("store", "local-directory");
        row.put("durability", durability);
        row.put("retries", Long.toString(retries));
        if (kind == StockDuckLake.Kind.POSTGRES) {
          long syncs = walSyncs[1] - walSyncs[0];
          row.put("log_syncs", Long.toString(syncs));
          row.put("commits_per_log_sync", ratio(r.commits(), syncs));
          if (pgLog != null) {
            row.put("server_errors", Long.toString(errorLines(pgLog, logOffsets)));
          }
        }
        report(row, r);
      }
      BenchStore.deleteTree(dir);
    }
  }

  private void moraine(boolean s3) throws Exception {
    int rows = integer("rows", 4);
    Duration putLatency = s3 ? Duration.ofMillis(integer("put-latency-ms", 25)) : Duration.ZERO;
    String side = s3 ? "moraine-s3" : "moraine-local";
    for (String config : options.getOrDefault("configs", "0:on").split(",")) {
      String[] parts = config.trim().split(":");
      if (parts.length != 2 || !(parts[1].equals("on") || parts[1].equals("off"))) {
        throw new IllegalArgumentException(
            "a Moraine configuration is <spacing ms>:on|off, got " + config);
      }
      int spacing = Integer.parseInt(parts[0]);
      boolean publish = parts[1].equals("on");
      for (int n : appenderCounts()) {
        String label = side + " spacing " + spacing + " ms, publication " + parts[1] + ", " + n;
        Path dir = null;
        ObjectStoreSpec spec;
        String path;
        String store;
        String durability;
        if (s3) {
          spec =
              ObjectStoreSpec.s3(
                  required("s3-endpoint"),
                  required("s3-bucket"),
                  "moraine-"
                      + options.getOrDefault("run", "run").replaceAll("[^0-9A-Za-z]", "")
                      + "-"
                      + spacing
                      + parts[1]
                      + "-"
                      + n,
                  "us-east-1",
                  required("s3-access-key"),
                  required("s3-secret-key"),
                  true);
          path = "lake";
          store = "s3proxy+" + putLatency.toMillis() + "ms-put";
          durability =
              "S3 PUT acknowledged by S3Proxy (filesystem backend) after "
                  + putLatency.toMillis()
                  + " ms injected";
        } else {
          dir = Path.of(required("work")).resolve("moraine-" + spacing + parts[1] + "-" + n);
          Files.createDirectories(dir);
          spec = ObjectStoreSpec.localDirectory(dir);
          path = "";
          store = "local-directory";
          durability = "SlateDB local store fsyncs each object and its directory";
        }
        out.printf(Locale.ROOT, "%n%s appender(s): opening%n", label);
        try (MoraineAppends lake =
            MoraineAppends.open(spec, path, putLatency, Duration.ofMillis(spacing), publish, n)) {
          CommitStatistics[] stats = new CommitStatistics[2];
          Measured m =
              measure(
                  label,
                  n,
                  i -> lake.appender(i, rows),
                  new AppendLoad.Window() {
                    @Override
                    public void opened() {
                      stats[0] = lake.statistics();
                    }

                    @Override
                    public void closed() {
                      stats[1] = lake.statistics();
                    }
                  });
          AppendLoad.Result r = m.result();
          long tableRows = lake.rows();
          boolean verified =
              tableRows == r.landedInRun() * rows && r.failedInRun() == 0 && r.commits() > 0;
          out.printf(
              Locale.ROOT,
              "  check: the table holds %d rows (%d landed commits x %d), %d failed in the run: %s%n",
              tableRows,
              r.landedInRun(),
              rows,
              r.failedInRun(),
              verified ? "ok" : "MISMATCH");
          Map<String, String> row = row(side, m, rows, verified);
          long flushes = stats[1].walFlushes() - stats[0].walFlushes();
          row.put("catalog", "moraine");
          row.put("store", store);
          row.put("durability", durability);
          row.put("flush_spacing_ms", Integer.toString(spacing));
          row.put("publication", parts[1]);
          row.put("retries", Long.toString(r.retries()));
          row.put("log_syncs", Long.toString(flushes));
          row.put("commits_per_log_sync", ratio(r.commits(), flushes));
          row.put(
              "checkpoints",
              Long.toString(stats[1].checkpointsPublished() - stats[0].checkpointsPublished()));
          report(row, r);
        }
        if (dir != null) {
          BenchStore.deleteTree(dir);
        }
      }
    }
  }

  /** A run's figures with the 1-minute load average before and after it. */
  private record Measured(AppendLoad.Result result, double loadBefore, double loadAfter) {}

  private Measured measure(
      String label, int n, IntFunction<AppendLoad.Appender> appenders, AppendLoad.Window window)
      throws InterruptedException {
    double before = AppendLoad.loadAverage();
    AppendLoad.Result r =
        AppendLoad.run(
            label,
            n,
            appenders,
            seconds("warmup-s", 5),
            seconds("measure-s", 30),
            seconds("progress-s", 5),
            window,
            out);
    return new Measured(r, before, AppendLoad.loadAverage());
  }

  private static long walSyncs(StockDuckLake lake, StockDuckLake.Kind kind) {
    if (kind != StockDuckLake.Kind.POSTGRES) {
      return 0;
    }
    try {
      return lake.postgresFacts().walSyncs();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("cannot read pg_stat_wal", e);
    }
  }

  /** ERROR lines the server logged between two offsets of its log. */
  private static long errorLines(Path log, long[] offsets) throws IOException {
    byte[] all = Files.readAllBytes(log);
    int from = (int) Math.min(offsets[0], all.length);
    int to = (int) Math.min(offsets[1], all.length);
    String part = new String(all, from, Math.max(0, to - from), StandardCharsets.UTF_8);
    return part.lines().filter(l -> l.contains(" ERROR: ")).count();
  }

  private static long size(Path file) {
    try {
      return file == null ? 0 : Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  // ---- the CSV and the report -----------------------------------------------------------------

  private Map<String, String> row(String side, Measured m, int rows, boolean verified) {
    AppendLoad.Result r = m.result();
    Map<String, String> row = new LinkedHashMap<>();
    for (String c : COLUMNS) {
      row.put(c, "");
    }
    row.put("run", options.getOrDefault("run", Instant.now().toString()));
    row.put("side", side);
    row.put("appenders", Integer.toString(r.appenders()));
    row.put("rows_per_commit", Integer.toString(rows));
    row.put("warmup_s", Long.toString(seconds("warmup-s", 5).toSeconds()));
    row.put("measure_s", fmt(r.seconds()));
    row.put("commits", Long.toString(r.commits()));
    row.put("commits_per_s", fmt(r.commitsPerSecond()));
    row.put("p50_ms", fmt(r.p50Ms()));
    row.put("p99_ms", fmt(r.p99Ms()));
    row.put("mean_ms", fmt(r.meanMs()));
    row.put("max_ms", fmt(r.maxMs()));
    row.put("failed", Long.toString(r.failed()));
    row.put("load1_start", fmt(m.loadBefore()));
    row.put("load1_end", fmt(m.loadAfter()));
    row.put("verified", Boolean.toString(verified));
    return row;
  }

  private void report(Map<String, String> row, AppendLoad.Result r) throws IOException {
    StringBuilder line = new StringBuilder("result");
    for (Map.Entry<String, String> e : row.entrySet()) {
      if (!e.getValue().isEmpty() && !e.getKey().equals("durability")) {
        line.append(' ').append(e.getKey()).append('=').append(e.getValue());
      }
    }
    out.println(line);
    for (String f : r.failures()) {
      out.println("  failure: " + f);
    }
    String csv = options.get("csv");
    if (csv != null) {
      Path file = Path.of(csv);
      StringBuilder text = new StringBuilder();
      if (!Files.exists(file) || Files.size(file) == 0) {
        text.append(String.join(",", COLUMNS)).append('\n');
      }
      List<String> cells = new ArrayList<>();
      for (String c : COLUMNS) {
        cells.add(csvCell(row.get(c)));
      }
      text.append(String.join(",", cells)).append('\n');
      Files.writeString(
          file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
  }

  /**
   * Prints one run of the CSV (the last one when {@code run} is null) as a Markdown table: each
   * configuration by appender count, with its commits/s over the PostgreSQL catalog's at the same
   * count.
   */
  static void summary(Path csv, String run, PrintStream out) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    List<String> header = parseCsvLine(lines.get(0));
    List<Map<String, String>> rows = new ArrayList<>();
    for (String l : lines.subList(1, lines.size())) {
      if (l.isBlank()) {
        continue;
      }
      List<String> cells = parseCsvLine(l);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.size(); i++) {
        row.put(header.get(i), i < cells.size() ? cells.get(i) : "");
      }
      rows.add(row);
    }
    String chosen = run != null ? run : rows.get(rows.size() - 1).get("run");
    rows.removeIf(r -> !r.get("run").equals(chosen));
    Map<String, Double> postgres = new HashMap<>();
    for (Map<String, String> r : rows) {
      if (r.get("side").equals("stock-postgres")) {
        postgres.put(r.get("appenders"), Double.parseDouble(r.get("commits_per_s")));
      }
    }
    // Configurations in the order the run measured them, each by appender count.
    Map<String, List<Map<String, String>>> byConfig = new LinkedHashMap<>();
    for (Map<String, String> r : rows) {
      byConfig.computeIfAbsent(configuration(r), k -> new ArrayList<>()).add(r);
    }
    out.println("run " + chosen);
    out.println();
    out.println(
        "| configuration | appenders | commits/s | x PostgreSQL catalog | p50 ms | p99 ms |"
            + " retries | failed | log syncs | commits per log sync | load |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (Map.Entry<String, List<Map<String, String>>> e : byConfig.entrySet()) {
      for (Map<String, String> r : e.getValue()) {
        Double base = postgres.get(r.get("appenders"));
        double cps = Double.parseDouble(r.get("commits_per_s"));
        out.printf(
            Locale.ROOT,
            "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s-%s |%n",
            e.getKey(),
            r.get("appenders"),
            r.get("commits_per_s"),
            base == null || base == 0 ? "" : String.format(Locale.ROOT, "%.1f", cps / base),
            r.get("p50_ms"),
            r.get("p99_ms"),
            r.get("retries"),
            r.get("failed"),
            r.get("log_syncs"),
            r.get("commits_per_log_sync"),
            r.get("load1_start"),
            r.get("load1_end"));
      }
    }
  }

  private static String configuration(Map<String, String> r) {
    String side = r.get("side");
    return switch (side) {
      case "stock-duckdb-file" -> "stock DuckLake, DuckDB-file catalog";
      case "stock-postgres" -> "stock DuckLake, PostgreSQL catalog";
      default ->
          "Moraine, "
              + r.get("store")
              + ", spacing "
              + r.get("flush_spacing_ms")
              + " ms, publication "
              + r.get("publication");
    };
  }

  static String csvCell(String value) {
    if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
      return "\"" + value.replace("\"", "\"\"") + "\"";
    }
    return value;
  }

  static List<String> parseCsvLine(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  // ---- options --------------------------------------------------------------------------------

  private List<Integer> appenderCounts() {
    return integers("appenders", List.of(1, 8, 16, 32));
  }

  private List<Integer> integers(String name, List<Integer> dflt) {
    String v = options.get(name);
    if (v == null) {
      return dflt;
    }
    List<Integer> out = new ArrayList<>();
    for (String part : v.split(",")) {
      out.add(Integer.parseInt(part.trim()));
    }
    return out;
  }

  private int integer(String name, int dflt) {
    String v = options.get(name);
    return v == null ? dflt : Integer.parseInt(v.trim());
  }

  private Duration seconds(String name, int dflt) {
    return Duration.ofSeconds(integer(name, dflt));
  }

  private String required(String name) {
    String v = options.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("option --" + name + " is required for this side");
    }
    return v;
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String ratio(long commits, long syncs) {
    return syncs == 0 ? "" : fmt((double) commits / syncs);
  }

  static {
    // The progress lines are this harness's own; the store's libraries log only what is wrong.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }
}
