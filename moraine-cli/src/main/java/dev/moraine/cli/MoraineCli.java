package dev.moraine.cli;

import dev.moraine.store.Versions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ScopeType;

/**
 * The {@code moraine} command: a demo and tools to look inside a lake. {@code -h}/{@code --help}
 * and {@code -V}/{@code --version} work on it and on every subcommand.
 */
@Command(
    name = "moraine",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = MoraineCli.VersionLines.class,
    description = "Moraine: a DuckLake catalog commit engine over SlateDB.",
    subcommands = {
      DemoCommand.class,
      ScanCommand.class,
      DumpCommand.class,
      ExportCommand.class,
      LogCommand.class,
      TablesCommand.class,
      FilesCommand.class,
      CensusCommand.class,
      MaintenanceCommand.class
    })
public final class MoraineCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

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
    return new CommandLine(new MoraineCli())
        .setExecutionExceptionHandler(new FailureReport())
        .setParameterExceptionHandler(new UsageErrors());
  }

  /** {@code moraine} without a subcommand: a usage error that lists the subcommands. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "Missing subcommand: one of " + String.join(", ", spec.subcommands().keySet()));
  }

  /** What {@code --version} prints: the library, the lake format and SlateDB it writes. */
  static final class VersionLines implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        Versions.library(),
        "writes lake format "
            + Versions.lakeFormat()
            + " (the format of the Rust moraine "
            + Versions.RUST_MORAINE
            + ") on SlateDB "
            + Versions.SLATEDB
      };
    }
  }
}
