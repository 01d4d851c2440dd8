package dev.moraine.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code moraine} command: a demo and tools to look inside a lake. */
@Command(
    name = "moraine",
    mixinStandardHelpOptions = true,
    version = "moraine 0.1.0-SNAPSHOT",
    description = "Moraine: a DuckLake catalog commit engine over SlateDB.",
    subcommands = {DemoCommand.class, ScanCommand.class, DumpCommand.class})
public final class MoraineCli {

  MoraineCli() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String... args) {
    try {
      return commandLine().execute(args);
    } catch (LinkageError broken) {
      // picocli hands only Exceptions to FailureReport; a native library that cannot be loaded
      // (missing from the jar, built for another platform) surfaces as an Error.
      System.err.println(
          "moraine: cannot load the native store library: " + FailureReport.describe(broken));
      return FailureReport.FAILED;
    }
  }

  /** The command line with its one-line failure reporting. */
  static CommandLine commandLine() {
    return new CommandLine(new MoraineCli()).setExecutionExceptionHandler(new FailureReport());
  }
}
