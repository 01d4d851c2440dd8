package dev.moraine.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One run of the command line in this JVM, as {@code main} would run it but without exiting: its
 * exit status and what it printed on standard output and standard error.
 */
record Run(int status, String out, String err) {

  /** Runs {@code moraine <args>}. */
  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = MoraineCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new Run(status, out.toString(), err.toString());
  }
}
