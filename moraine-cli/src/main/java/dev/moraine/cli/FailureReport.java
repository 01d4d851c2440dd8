package dev.moraine.cli;

import dev.moraine.core.kv.KvException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception that escaped a command into one line on standard error and exit status 1.
 *
 * <p>Users of a command line act on the message, not on a stack trace: the line names the command
 * and says what went wrong. The stack trace is printed too when the system property {@code
 * moraine.cli.stackTrace} is {@code true}, for reports of a bug.
 */
final class FailureReport implements IExecutionExceptionHandler {

  /** The exit status of a command that failed while running. */
  static final int FAILED = 1;

  @Override
  public int handleExecutionException(
      Exception failure, CommandLine command, ParseResult parseResult) {
    PrintWriter err = command.getErr();
    err.println("moraine " + command.getCommandName() + ": " + describe(failure));
    if (Boolean.getBoolean("moraine.cli.stackTrace")) {
      failure.printStackTrace(err);
    }
    err.flush();
    return FAILED;
  }

  /** The failure as one line: our own messages as they are, anything else with its type. */
  static String describe(Throwable failure) {
    String message = failure.getMessage();
    String text;
    if (failure instanceof CliFailure) {
      text = message;
    } else if (failure instanceof KvException && message != null) {
      text = "store error: " + message;
    } else {
      text = failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
    return text.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
