package dev.moraine.store.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs {@code moraine-oracle}, the Rust tool of {@code native/oracle} built on the Rust {@code
 * moraine} 0.7.0 crate, as a reference for the Java catalog: {@code write} creates a lake through
 * the crate's verbs, {@code dump} and {@code check} print the catalog as the JSON of
 * docs/dump-format.md.
 *
 * <p>The binary is the one the module's test build compiles ({@code cargo-build-oracle}), {@code
 * ${cargo.target.dir}/release/moraine-oracle}; the build passes its path in the system property
 * {@value #BINARY_PROPERTY}. Without the property the default target directory relative to the
 * module is tried.
 */
public final class RustOracle {
  /** The system property naming the binary. */
  public static final String BINARY_PROPERTY = "moraine.oracle.binary";

  /** Enough for the workload (about 45 commits at the crate's 100 ms flush spacing) and a dump. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private final Path binary;
  private final Duration timeout;

  private RustOracle(Path binary, Duration timeout) {
    this.binary = binary;
    this.timeout = timeout;
  }

  /**
   * The built binary, with {@link #DEFAULT_TIMEOUT}.
   *
   * @throws IllegalStateException if no executable is found where the build puts it; nothing has
   *     been run
   */
  public static RustOracle locate() {
    String configured = System.getProperty(BINARY_PROPERTY);
    Path binary =
        configured != null
            ? Path.of(configured)
            : Path.of("native", "target", "release", "moraine-oracle").toAbsolutePath();
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          "moraine-oracle is not built at "
              + binary
              + " (the module's test build compiles it; -DskipTests and -Dmoraine.oracle.skip do not)");
    }
    return new RustOracle(binary, DEFAULT_TIMEOUT);
  }

  /** The same binary with another bound on each run. */
  public RustOracle withTimeout(Duration newTimeout) {
    return new RustOracle(binary, newTimeout);
  }

  /**
   * {@code write <dir>}: creates {@code dir} and runs the workload into a new lake there.
   *
   * @throws Failure as {@link #run}
   */
  public void write(Path dir) {
    run("write", dir.toString());
  }

  /**
   * {@code dump <dir>}: the JSON of every snapshot of the lake in {@code dir}.
   *
   * @throws Failure as {@link #run}
   */
  public String dump(Path dir) {
    return run("dump", dir.toString());
  }

  /**
   * {@code dump <dir> --at <id>}: the JSON of one snapshot.
   *
   * @throws Failure as {@link #run}
   */
  public String dumpAt(Path dir, long snapshotId) {
    return run("dump", dir.toString(), "--at", Long.toUnsignedString(snapshotId));
  }

  /**
   * {@code check <dir>}: the crate opens a lake the Java writer created and dumps it.
   *
   * @throws Failure as {@link #run}, in particular when the crate refuses the lake
   */
  public String check(Path dir) {
    return run("check", dir.toString());
  }

  /**
   * {@code append <dir>}: the crate opens the existing lake in {@code dir} as its writer (fencing
   * any other) and adds its commits.
   *
   * @return the head snapshot id it found and the one it left
   * @throws Failure as {@link #run}
   */
  public long[] append(Path dir) {
    String[] heads = run("append", dir.toString()).strip().split(" ");
    return new long[] {Long.parseLong(heads[0]), Long.parseLong(heads[1])};
  }

  /**
   * {@code hold <dir>}: starts a crate writer on the existing lake in {@code dir} and returns once
   * it has opened (and so fenced any other writer). The caller then asks it to commit with {@link
   * Held#commit()} and must close it.
   *
   * @throws Failure if the tool cannot be started, or does not report the open within the timeout
   *     (the process is then killed)
   */
  public Held hold(Path dir) {
    List<String> command = List.of(binary.toString(), "hold", dir.toString());
    Process process;
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new Failure(command, -1, "cannot run: " + e.getMessage());
    }
    Held held = new Held(command, process, timeout);
    try {
      String first = held.nextLine();
      if (!"open".equals(first)) {
        throw new Failure(command, -1, "expected \"open\", got " + first);
      }
    } catch (RuntimeException e) {
      held.close();
      throw e;
    }
    return held;
  }

  /**
   * A crate writer held open by {@code moraine-oracle hold}. Its one process is owned by this
   * object; {@link #close()} ends it.
   */
  public static final class Held implements AutoCloseable {
    private final List<String> command;
    private final Process process;
    private final Duration timeout;
    private final BufferedReader out;

    private Held(List<String> command, Process process, Duration timeout) {
      this.command = command;
      this.process = process;
      this.timeout = timeout;
      this.out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Tells the writer to commit and returns what became of the commit: {@code "fenced"} or {@code
     * "committed <id>"}.
     *
     * @throws Failure if the tool fails or does not answer within the timeout; the process is then
     *     ended
     */
    public String commit() {
      try {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
        String answer = nextLine();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new Failure(command, -1, "did not exit within " + timeout);
        }
        if (process.exitValue() != 0 || answer == null) {
          throw new Failure(command, process.exitValue(), "answered " + answer);
        }
        return answer;
      } catch (IOException e) {
        throw new Failure(command, -1, "cannot talk to it: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Failure(command, -1, "interrupted");
      }
    }

    /** The next line the tool prints, waiting at most the timeout. */
    private String nextLine() {
      CompletableFuture<String> line =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return out.readLine();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      try {
        return line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new Failure(command, -1, "no answer within " + timeout);
      } catch (ExecutionException e) {
        throw new Failure(command, -1, "cannot read its output: " + e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Failure(command, -1, "interrupted");
      }
    }

    /** Ends the process if it is still running. */
    @Override
    public void close() {
      process.destroyForcibly();
      try {
        process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Runs the tool with {@code args} and returns what it printed on stdout (UTF-8).
   *
   * @throws Failure if the tool exits with another status than 0, runs longer than the timeout, or
   *     cannot be started; afterwards the process has ended (it is killed on a timeout) and its
   *     captured output is deleted
   */
  public String run(String... args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of(args));
    Path out = null;
    Path err = null;
    try {
      // Output goes to files, not pipes: a dump is larger than a pipe's buffer, and reading two
      // pipes would need a thread per pipe.
      out = Files.createTempFile("moraine-oracle", ".out");
      err = Files.createTempFile("moraine-oracle", ".err");
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new Failure(command, -1, "no answer within " + timeout);
      }
      String stderr = Files.readString(err, StandardCharsets.UTF_8).strip();
      if (process.exitValue() != 0) {
        throw new Failure(command, process.exitValue(), stderr);
      }
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Failure(command, -1, "cannot run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(command, -1, "interrupted");
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // A temp file left behind is harmless.
      }
    }
  }

  /** A run of the tool that did not succeed; {@link #exitStatus()} is -1 if it did not exit. */
  public static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitStatus;
    private final String stderr;

    Failure(List<String> command, int exitStatus, String stderr) {
      super(String.join(" ", command) + " failed (" + exitStatus + "): " + stderr);
      this.exitStatus = exitStatus;
      this.stderr = stderr;
    }

    /** The exit status, or -1 if the process did not exit by itself. */
    public int exitStatus() {
      return exitStatus;
    }

    /** What the tool printed on stderr, stripped, or why it could not be run. */
    public String stderr() {
      return stderr;
    }
  }
}
