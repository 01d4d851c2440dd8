package dev.moraine.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A timed run of N appenders, each on a thread of its own, each committing one small append after
 * another for as long as the run lasts: a warm-up whose commits are not counted, then the measured
 * window, then a drain in which every commit still under way finishes (and is not counted either).
 *
 * <p>A commit counts in the window when it ends inside it. For each such commit the run keeps its
 * latency (from the call to its return, retries included) and whether it failed; the side tells how
 * many retries it saw, when it can. Progress is printed while the run goes.
 */
final class AppendLoad {
  /** One appender: the commit it makes on each call. */
  interface Appender {
    /**
     * Commits one append, numbered {@code seq} within this appender.
     *
     * @return the attempts this commit took beyond its first, where the side can tell, else 0
     * @throws Exception when the commit failed: it counts as a failed commit
     */
    int append(long seq) throws Exception;
  }

  /** What the coordinator does at the window's edges (read counters, note log positions). */
  interface Window {
    /** Called once, as the measured window opens. */
    void opened();

    /** Called once, as the measured window closes (commits still under way are not waited for). */
    void closed();

    /** A window that does nothing at its edges. */
    Window NONE =
        new Window() {
          @Override
          public void opened() {}

          @Override
          public void closed() {}
        };
  }

  /**
   * The figures of one run.
   *
   * @param appenders how many appenders ran
   * @param seconds the measured window's length
   * @param commits commits that landed within the window
   * @param failed commits that failed within the window
   * @param retries retries the appenders reported for commits within the window
   * @param p50Ms median latency of the landed commits, milliseconds
   * @param p99Ms 99th percentile (nearest rank) of the same
   * @param meanMs mean of the same
   * @param maxMs longest of the same
   * @param landedInRun commits that landed in the whole run (warm-up and drain included)
   * @param failedInRun commits that failed in the whole run
   * @param failures up to five distinct failure messages, shortened
   * @param windowStart wall-clock time the window opened
   * @param windowEnd wall-clock time the window closed
   */
  record Result(
      int appenders,
      double seconds,
      long commits,
      long failed,
      long retries,
      double p50Ms,
      double p99Ms,
      double meanMs,
      double maxMs,
      long landedInRun,
      long failedInRun,
      List<String> failures,
      Instant windowStart,
      Instant windowEnd) {
    /** Landed commits per second of the window. */
    double commitsPerSecond() {
      return commits / seconds;
    }
  }

  private AppendLoad() {}

  /**
   * Runs {@code appenders} appenders (made by {@code factory}, one per thread index) for {@code
   * warmup} plus {@code measure}, printing progress to {@code out} every {@code progress}.
   */
  static Result run(
      String label,
      int appenders,
      IntFunction<Appender> factory,
      Duration warmup,
      Duration measure,
      Duration progress,
      Window window,
      PrintStream out)
      throws InterruptedException {
    List<Appender> made = new ArrayList<>(appenders);
    for (int i = 0; i < appenders; i++) {
      made.add(factory.apply(i));
    }
    AtomicLong landed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Worker[] workers = new Worker[appenders];
    CountDownLatch go = new CountDownLatch(1);
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    long open = start + warmup.toNanos();
    long close = open + measure.toNanos();
    for (int i = 0; i < appenders; i++) {
      workers[i] = new Worker(made.get(i), go, open, close, landed, failed);
      Thread t = new Thread(workers[i], "appender-" + i);
      t.setDaemon(true);
      workers[i].thread = t;
      t.start();
    }
    sleepUntil(start);
    go.countDown();

    Instant windowStart = null;
    Instant windowEnd = null;
    long nextReport = start + progress.toNanos();
    boolean opened = false;
    while (true) {
      long now = System.nanoTime();
      if (!opened && now >= open) {
        windowStart = Instant.now();
        window.opened();
        opened = true;
        out.printf(
            Locale.ROOT, "  [%s] warm-up done: measuring %d s%n", label, measure.toSeconds());
      }
      if (now >= close) {
        windowEnd = Instant.now();
        window.closed();
        break;
      }
      if (now >= nextReport) {
        out.printf(
            Locale.ROOT,
            "  [%s] %4.0f s: %d commits landed, %d failed%n",
            label,
            (now - start) / 1e9,
            landed.get(),
            failed.get());
        nextReport += progress.toNanos();
      }
      sleepUntil(Math.min(Math.min(nextReport, close), opened ? close : open));
    }
    out.printf(Locale.ROOT, "  [%s] window closed: waiting for commits under way%n", label);
    for (Worker w : workers) {
      w.thread.join(TimeUnit.MINUTES.toMillis(5));
      if (w.thread.isAlive()) {
        throw new IllegalStateException(label + ": an appender did not finish within 5 minutes");
      }
    }

    long commits = 0;
    long failedInWindow = 0;
    long retries = 0;
    int samples = 0;
    for (Worker w : workers) {
      commits += w.windowLanded;
      failedInWindow += w.windowFailed;
      retries += w.windowRetries;
      samples += w.latencies.size;
    }
    long[] all = new long[samples];
    int at = 0;
    Set<String> failures = new LinkedHashSet<>();
    for (Worker w : workers) {
      System.arraycopy(w.latencies.values, 0, all, at, w.latencies.size);
      at += w.latencies.size;
      for (String f : w.failures) {
        if (failures.size() < 5) {
          failures.add(f);
        }
      }
    }
    Arrays.sort(all);
    double sum = 0;
    for (long v : all) {
      sum += v;
    }
    return new Result(
        appenders,
        measure.toNanos() / 1e9,
        commits,
        failedInWindow,
        retries,
        percentileMs(all, 0.50),
        percentileMs(all, 0.99),
        all.length == 0 ? Double.NaN : sum / all.length / 1e6,
        all.length == 0 ? Double.NaN : all[all.length - 1] / 1e6,
        landed.get(),
        failed.get(),
        List.copyOf(failures),
        windowStart,
        windowEnd);
  }

  /** The nearest-rank percentile of sorted nanosecond values, in milliseconds. */
  static double percentileMs(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)] / 1e6;
  }

  /** The 1-minute load average, or NaN where /proc/loadavg is not there. */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  /** One appender's loop and what it saw; read by the coordinator only after the thread ended. */
  private static final class Worker implements Runnable {
    private final Appender appender;
    private final CountDownLatch go;
    private final long open;
    private final long close;
    private final AtomicLong landed;
    private final AtomicLong failed;
    private final Longs latencies = new Longs();
    private final List<String> failures = new ArrayList<>();
    private long windowLanded;
    private long windowFailed;
    private long windowRetries;
    private Thread thread;

    Worker(
        Appender appender,
        CountDownLatch go,
        long open,
        long close,
        AtomicLong landed,
        AtomicLong failed) {
      this.appender = appender;
      this.go = go;
      this.open = open;
      this.close = close;
      this.landed = landed;
      this.failed = failed;
    }

    @Override
    public void run() {
      try {
        go.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      for (long seq = 0; System.nanoTime() < close; seq++) {
        long begin = System.nanoTime();
        int retries = 0;
        String failure = null;
        try {
          retries = appender.append(seq);
        } catch (Exception e) {
          String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim();
          failure =
              e.getClass().getSimpleName()
                  + ": "
                  + (message.length() > 240 ? message.substring(0, 240) + "..." : message);
        }
        long end = System.nanoTime();
        boolean inWindow = end >= open && end < close;
        if (failure == null) {
          landed.incrementAndGet();
          if (inWindow) {
            windowLanded++;
            windowRetries += retries;
            latencies.add(end - begin);
          }
        } else {
          failed.incrementAndGet();
          if (inWindow) {
            windowFailed++;
          }
          if (failures.size() < 5 && !failures.contains(failure)) {
            failures.add(failure);
          }
        }
      }
    }
  }

  /** A growing array of longs. */
  private static final class Longs {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }
  }
}
