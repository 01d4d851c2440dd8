package dev.moraine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AppendLoadTest {
  @Test
  void percentilesAreNearestRank() {
    long[] ms = new long[100];
    for (int i = 0; i < 100; i++) {
      ms[i] = (i + 1) * 1_000_000L;
    }
    assertEquals(50.0, AppendLoad.percentileMs(ms, 0.50));
    assertEquals(99.0, AppendLoad.percentileMs(ms, 0.99));
    assertEquals(7.0, AppendLoad.percentileMs(new long[] {7_000_000L}, 0.99));
    assertTrue(Double.isNaN(AppendLoad.percentileMs(new long[0], 0.5)));
  }

  @Test
  void aShortRunCountsLandedAndFailedCommitsAndWhatTheAppendersReport() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    AppendLoad.Result r =
        AppendLoad.run(
            "test",
            2,
            i ->
                seq -> {
                  Thread.sleep(2);
                  if (calls.incrementAndGet() % 5 == 0) {
                    throw new IllegalStateException("refused\nacross lines");
                  }
                  return 1;
                },
            Duration.ofMillis(100),
            Duration.ofMillis(300),
            Duration.ofMillis(100),
            AppendLoad.Window.NONE,
            new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(2, r.appenders());
    assertTrue(r.commits() > 0 && r.failed() > 0, r.toString());
    assertEquals(r.commits(), r.retries(), "each landed commit reported one retry");
    assertEquals(calls.get(), r.landedInRun() + r.failedInRun());
    assertTrue(r.landedInRun() >= r.commits() && r.failedInRun() >= r.failed());
    assertEquals(List.of("IllegalStateException: refused across lines"), r.failures());
    assertTrue(r.p50Ms() >= 2 && r.p99Ms() >= r.p50Ms() && r.maxMs() >= r.p99Ms());
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("[test] warm-up done"));
  }

  @Test
  void csvCellsRoundTrip() {
    List<String> cells = List.of("plain", "with, comma", "with \"quotes\"", "");
    StringBuilder line = new StringBuilder();
    for (String c : cells) {
      line.append(line.length() == 0 ? "" : ",").append(StockDuckLakeBench.csvCell(c));
    }
    // An empty first cell would start the line with a comma; the cells above start with text.
    assertEquals(cells, StockDuckLakeBench.parseCsvLine(line.toString()));
  }
}
