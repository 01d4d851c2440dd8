package dev.moraine.cli;

import java.io.PrintWriter;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A command line that does not parse: the error, then the nearest subcommand when a subcommand name
 * was misspelt (or picocli's own suggestions for a misspelt option), else the usage; exit status 2.
 *
 * <p>The nearest subcommand is the one at the smallest edit distance (insertions, deletions,
 * substitutions and swaps of neighbours, each counting one), if that distance is small for the
 * name's length: one edit for names of up to three letters, two for longer ones. picocli's own
 * suggestions compare letter pairs, which misses a swap such as {@code dmeo} for {@code demo}.
 */
final class UsageErrors implements IParameterExceptionHandler {

  @Override
  public int handleParseException(ParameterException failure, String[] args) {
    CommandLine command = failure.getCommandLine();
    PrintWriter err = command.getErr();
    err.println(failure.getMessage());
    Optional<String> meant = misspeltSubcommand(failure);
    if (meant.isPresent()) {
      err.println(
          "Did you mean: " + command.getCommandSpec().qualifiedName() + " " + meant.get() + "?");
    } else if (!UnmatchedArgumentException.printSuggestions(failure, err)) {
      command.usage(err);
    }
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The subcommand a first argument that matched nothing was meant to be, if one is near. */
  private static Optional<String> misspeltSubcommand(ParameterException failure) {
    CommandLine command = failure.getCommandLine();
    if (!(failure instanceof UnmatchedArgumentException unmatched)
        || command.getSubcommands().isEmpty()
        || unmatched.getUnmatched().isEmpty()) {
      return Optional.empty();
    }
    String typed = unmatched.getUnmatched().get(0);
    if (typed.startsWith("-")) {
      return Optional.empty();
    }
    return nearest(typed, command.getSubcommands().keySet());
  }

  /** The name nearest to {@code typed}, if it is near enough (see the class comment). */
  static Optional<String> nearest(String typed, Collection<String> names) {
    int allowed = typed.length() <= 3 ? 1 : 2;
    String lower = typed.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String name : names) {
      int d = distance(lower, name);
      if (d < bestDistance) {
        best = name;
        bestDistance = d;
      }
    }
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Edits from {@code a} to {@code b}: insert, delete, substitute, or swap two neighbours. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int substitute = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] =
            Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + substitute);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
