package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code moraine-oracle} binary (the Rust {@code moraine} crate's side of the interop
 * tests). The binary is {@code moraine-store/native/target/release/moraine-oracle}, or the path in
 * the system property {@code moraine.oracle}; a test that needs it fails, with how to build it,
 * when it is not there.
 */
final class OracleTool {
  /** A limit on one run, so that a hung process fails the test instead of hanging the build. */
  private static final long RUN_LIMIT_SECONDS = 300;

  /** What one run returned. */
  record Result(int status, String stdout, String stderr) {}

  private OracleTool() {}

  static Path binary() {
    String configured = System.getProperty("moraine.oracle");
    Path path =
        configured != null && !configured.isEmpty()
            ? Paths.get(configured)
            : Paths.get("native", "target", "release", "moraine-oracle").toAbsolutePath();
    if (!Files.isExecutable(path)) {
      fail(
          "the moraine-oracle binary is missing at "
              + path
              + ": build it with `cargo build --release --locked -p moraine-oracle --target-dir"
              + " target` in moraine-store/native (or run the moraine-store Maven build without"
              + " -Dmoraine.native.skip), or point -Dmoraine.oracle=<path> at a built one");
    }
    return path;
  }

  /** Runs the oracle with {@code args}; its output is read whole. */
  static Result run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(binary().toString());
    command.addAll(List.of(args));
    Path out = Files.createTempFile("moraine-oracle", ".out");
    Path err = Files.createTempFile("moraine-oracle", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(RUN_LIMIT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("moraine-oracle " + String.join(" ", args) + " did not finish");
      }
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Runs the oracle and fails the test unless it exits 0; its standard output. */
  static String succeed(String... args) throws IOException, InterruptedException {
    Result result = run(args);
    if (result.status() != 0) {
      fail(
          "moraine-oracle "
              + String.join(" ", args)
              + " exited "
              + result.status()
              + ": "
              + result.stderr().strip());
    }
    return result.stdout();
  }
}
