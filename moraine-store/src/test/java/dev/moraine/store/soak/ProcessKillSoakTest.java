package dev.moraine.store.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.soak.SoakCheck.Ack;
import dev.moraine.store.soak.SoakCheck.Result;
import dev.moraine.store.soak.SoakLake.Tables;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process-kill soak: a writer JVM ({@link SoakWriter}) commits from many threads to a lake in a
 * local directory and is killed with SIGKILL at a random point; the lake is reopened as a writer
 * and checked ({@link SoakCheck}); the next cycle's writer carries on from the head that reopen
 * found. Every acknowledgement the writer printed is appended to a file here, in this JVM, as it is
 * read, so the acknowledged set outlives the writer.
 *
 * <p>Cycles: {@code -Dmoraine.soak.cycles=<n>} (5 unless set; 100 for a soak run). The kill points,
 * thread counts and flush spacings of the cycles follow from one seed: {@code
 * -Dmoraine.soak.seed=<number>} replays one, {@code random} draws a fresh one, and without either
 * the seed is fixed locally and fresh where the environment has {@code CI=true}. A failure names
 * the cycle, the seed and what was missing, and leaves the lake, the acknowledgements and each
 * writer's standard error in the test's directory.
 *
 * <p>A cycle kills the writer either once it has printed a drawn number of acknowledgements (0 to
 * 400) and a further 0 to 40 ms have passed, or, in about one cycle in ten, at a drawn time (0 to
 * 2.5 s) after the process started, which may fall in its start, its opening of the lake or its
 * first commits. Every wait is bounded by minutes, never asserted on.
 */
@EnabledOnOs(value = OS.LINUX, disabledReason = "kills with SIGKILL and expects exit status 137")
class ProcessKillSoakTest {
  static final String CYCLES = "moraine.soak.cycles";
  static final String SEED = "moraine.soak.seed";
  private static final long FIXED_SEED = 20_261_201L;
  private static final int[] THREADS = {16, 32, 64};
  private static final long[] SPACINGS_MS = {0, 2, 10, 100};

  /** 128 + SIGKILL: the exit status of a process killed by that signal. */
  private static final int KILLED = 128 + 9;

  /** The bound of every wait on the writer: generous, for a loaded machine. */
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  /** How one cycle's writer is run and killed. */
  private record Plan(
      int cycle, int threads, long spacingMs, int killAfterAcks, long delayMs, long writerSeed) {
    boolean fromStart() {
      return killAfterAcks < 0;
    }

    String describe() {
      return threads
          + " threads, flush spacing "
          + spacingMs
          + " ms, killed "
          + (fromStart()
              ? delayMs + " ms after it started"
              : "after ack " + killAfterAcks + " + " + delayMs + " ms");
    }

    static Plan draw(int cycle, Random random) {
      int threads = THREADS[random.nextInt(THREADS.length)];
      long spacing = SPACINGS_MS[random.nextInt(SPACINGS_MS.length)];
      boolean fromStart = cycle > 1 && random.nextInt(10) == 0;
      int acks = fromStart ? -1 : random.nextInt(401);
      long delay = fromStart ? random.nextInt(2_500) : random.nextInt(41);
      return new Plan(cycle, threads, spacing, acks, delay, random.nextLong());
    }
  }

  @Test
  void aWriterKilledAtRandomPoints_losesNoAcknowledgedCommit_andLeavesNonePartial()
      throws Exception {
    int cycles = Integer.getInteger(CYCLES, 5);
    long seed = seed();
    System.out.println(
        String.format("process-kill soak: %d cycles, seed %d (-D%s=%d)", cycles, seed, SEED, seed));
    Path lake = Files.createDirectories(dir.resolve("lake"));
    Path ackFile = dir.resolve("acknowledged.log");
    Files.createFile(ackFile);
    Tables tables = SoakLake.create(lake);
    Result last = reopenAndCheck(lake, tables, List.of(), 0, ackFile);
    assertEquals(List.of(), last.problems(), "the lake as created");
    Random random = new Random(seed);
    long started = System.nanoTime();
    long acknowledged = 0;
    for (int cycle = 1; cycle <= cycles; cycle++) {
      Plan plan = Plan.draw(cycle, random);
      String where =
          "cycle " + cycle + " of " + cycles + " (seed " + seed + "; " + plan.describe() + ")";
      long t0 = System.nanoTime();
      Run run = runAndKill(plan, lake, ackFile, where);
      long t1 = System.nanoTime();
      Result result = reopenAndCheck(lake, tables, last.log(), cycle, ackFile);
      long t2 = System.nanoTime();
      List<String> problems = new ArrayList<>(result.problems());
      if (run.readyHead() >= 0 && run.readyHead() != last.head()) {
        problems.add(
            0,
            "the writer opened at head "
                + run.readyHead()
                + ", but the reopen before it found head "
                + last.head());
      }
      if (!problems.isEmpty()) {
        fail(report(where, problems));
      }
      acknowledged += run.acks();
      System.out.println(
          String.format(
              "cycle %d: %s; %d acknowledged, %d landed (head %d)%s; writer %d ms, reopen and"
                  + " check %d ms",
              cycle,
              plan.describe(),
              run.acks(),
              result.head() - last.head(),
              result.head(),
              run.tornLine() ? ", a line cut by the kill" : "",
              TimeUnit.NANOSECONDS.toMillis(t1 - t0),
              TimeUnit.NANOSECONDS.toMillis(t2 - t1)));
      last = result;
    }
    System.out.println(
        String.format(
            "process-kill soak: %d cycles, %d commits acknowledged, head %d, %d s",
            cycles,
            acknowledged,
            last.head(),
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)));
  }

  /** The seed from {@value #SEED}, else fresh where {@code CI=true}, else fixed. */
  private static long seed() {
    String requested = System.getProperty(SEED, "").trim();
    boolean inCi = "true".equalsIgnoreCase(System.getenv("CI"));
    if (requested.equalsIgnoreCase("random") || (requested.isEmpty() && inCi)) {
      return new SecureRandom().nextLong();
    }
    return requested.isEmpty() ? FIXED_SEED : Long.parseLong(requested);
  }

  private String report(String where, List<String> problems) {
    StringBuilder out = new StringBuilder("process-kill soak, " + where + ": ");
    out.append(problems.size()).append(" problem(s) after the reopen");
    problems.stream().limit(40).forEach(p -> out.append("\n  - ").append(p));
    if (problems.size() > 40) {
      out.append("\n  ... and ").append(problems.size() - 40).append(" more");
    }
    out.append("\nthe lake, the acknowledgements and the writers' standard error are in ")
        .append(dir);
    return out.toString();
  }

  /** Opens the lake as a writer, as a host would after the crash, and checks it. */
  private static Result reopenAndCheck(
      Path lake, Tables tables, List<SnapshotInfo> previous, int cycle, Path ackFile)
      throws IOException {
    List<Ack> acks = new ArrayList<>();
    for (String line : Files.readAllLines(ackFile, StandardCharsets.US_ASCII)) {
      Ack ack = Ack.parse(line);
      if (ack == null) {
        throw new AssertionError("not an acknowledgement in " + ackFile + ": " + line);
      }
      acks.add(ack);
    }
    try (KvStore store = SoakLake.provider(lake).openWriter();
        Catalog catalog = Catalog.open(store, SoakLake.options(Duration.ZERO))) {
      return SoakCheck.check(catalog, tables, previous, cycle, acks);
    }
  }

  /** What the harness saw of one writer. */
  private record Run(int acks, long readyHead, boolean tornLine) {}

  /** Runs one cycle's writer, kills it as planned and reads what it printed to the end. */
  private Run runAndKill(Plan plan, Path lake, Path ackFile, String where) throws Exception {
    Path stderr = dir.resolve("writer-" + plan.cycle() + ".stderr");
    Process writer =
        new ProcessBuilder(writerCommand(plan, lake)).redirectError(stderr.toFile()).start();
    writer.getOutputStream().close();
    Lines lines = new Lines(writer.getInputStream(), ackFile);
    Thread reader = new Thread(lines, "soak-reader-" + plan.cycle());
    reader.start();
    try {
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (!plan.fromStart()
          && (lines.readyHead.get() < 0 || lines.acks.get() < plan.killAfterAcks())) {
        if (!writer.isAlive()) {
          fail(exitedByItself(where, writer, lines, stderr));
        }
        if (System.nanoTime() > deadline) {
          fail(
              "process-kill soak, "
                  + where
                  + ": the writer printed "
                  + lines.acks.get()
                  + " acknowledgements in "
                  + PATIENCE
                  + ", fewer than the "
                  + plan.killAfterAcks()
                  + " to wait for"
                  + tail(stderr));
        }
        Thread.sleep(2);
      }
      Thread.sleep(plan.delayMs());
      if (!writer.isAlive()) {
        fail(exitedByItself(where, writer, lines, stderr));
      }
      // SIGKILL through the process handle: Process.destroyForcibly sends the same signal but
      // also closes this side of the pipe, dropping the lines still in it unread.
      writer.toHandle().destroyForcibly();
      if (!writer.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("process-kill soak, " + where + ": the writer did not die after SIGKILL");
      }
      reader.join(PATIENCE.toMillis());
      if (reader.isAlive()) {
        fail("process-kill soak, " + where + ": the writer's output did not end after it died");
      }
      if (lines.error.get() != null) {
        fail("process-kill soak, " + where + ": " + lines.error.get() + tail(stderr));
      }
      if (writer.exitValue() != KILLED) {
        fail(exitedByItself(where, writer, lines, stderr));
      }
      return new Run(lines.acks.get(), lines.readyHead.get(), lines.torn);
    } finally {
      writer.destroyForcibly();
    }
  }

  private static String exitedByItself(String where, Process writer, Lines lines, Path stderr)
      throws InterruptedException {
    writer.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    return "process-kill soak, "
        + where
        + ": the writer exited by itself with status "
        + writer.exitValue()
        + (lines.error.get() == null ? "" : " (" + lines.error.get() + ")")
        + tail(stderr);
  }

  /** The last lines of a writer's standard error, for a failure message. */
  private static String tail(Path stderr) {
    try {
      List<String> all = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      return "\nthe writer's standard error ends:\n"
          + String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
    } catch (IOException e) {
      return "\n(the writer's standard error could not be read: " + e + ")";
    }
  }

  /**
   * The writer JVM: the java binary, class path, module options and native-library and logging
   * settings of this JVM.
   */
  private static List<String> writerCommand(Plan plan, Path lake) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int i = 0; i < jvm.size(); i++) {
      String a = jvm.get(i);
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        command.add(a);
        if (!a.contains("=") && i + 1 < jvm.size()) {
          command.add(jvm.get(++i));
        }
      }
    }
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("moraine.native.")
          || name.startsWith("slf4j.")
          || name.startsWith("org.slf4j.")
          || name.equals("java.io.tmpdir")) {
        command.add("-D" + name + "=" + System.getProperty(name));
      }
    }
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SoakWriter.class.getName());
    command.add(lake.toString());
    command.add(Integer.toString(plan.cycle()));
    command.add(Integer.toString(plan.threads()));
    command.add(Long.toString(plan.spacingMs()));
    command.add(Long.toString(plan.writerSeed()));
    return command;
  }

  /**
   * Reads the writer's standard output to its end, line by line, appending each acknowledgement to
   * the file of acknowledgements as soon as its line is complete. A last line without its newline
   * was cut by the kill and is not counted.
   */
  private static final class Lines implements Runnable {
    final AtomicInteger acks = new AtomicInteger();
    final AtomicLong readyHead = new AtomicLong(-1);
    final AtomicReference<String> error = new AtomicReference<>();
    private final InputStream in;
    private final Path ackFile;
    volatile boolean torn;

    Lines(InputStream in, Path ackFile) {
      this.in = new BufferedInputStream(in);
      this.ackFile = ackFile;
    }

    @Override
    public void run() {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      try (OutputStream out = Files.newOutputStream(ackFile, StandardOpenOption.APPEND)) {
        int b;
        while ((b = in.read()) != -1) {
          if (b != '\n') {
            line.write(b);
            continue;
          }
          String text = line.toString(StandardCharsets.US_ASCII);
          line.reset();
          if (Ack.parse(text) != null) {
            out.write((text + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            acks.incrementAndGet();
          } else if (text.startsWith("ready ")) {
            readyHead.set(Long.parseLong(text.substring("ready ".length())));
          } else {
            error.compareAndSet(null, "the writer printed: " + text);
          }
        }
        torn = line.size() > 0;
      } catch (IOException | RuntimeException e) {
        error.compareAndSet(null, "reading the writer's output failed: " + e);
      }
    }
  }
}
