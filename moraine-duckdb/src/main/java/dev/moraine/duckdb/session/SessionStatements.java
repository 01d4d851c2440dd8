package dev.moraine.duckdb.session;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What {@link DuckLakeSession} checks of a statement before DuckDB runs it: that it is one
 * statement (its transaction state is read off the statement's first keyword, which a second
 * statement would hide), and that it does not run DuckLake maintenance that deletes files from the
 * data path the staging catalog shares with the lake without the lake's say (orphan deletion, which
 * would take files of commits in flight, and CHECKPOINT: the lake's own maintenance does those,
 * through {@code Catalog}). Snapshot expiry and the cleanup of files scheduled for deletion go
 * through the staged-row door.
 */
final class SessionStatements {
  /** Calls that delete files in the data path. */
  private static final Pattern DESTRUCTIVE =
      Pattern.compile("ducklake_delete_orphaned_files|\\bcheckpoint\\b", Pattern.CASE_INSENSITIVE);

  /** Head-preserving maintenance the door takes, in a statement of its own. */
  private static final Pattern MAINTENANCE =
      Pattern.compile(
          "ducklake_expire_snapshots|ducklake_cleanup_old_files", Pattern.CASE_INSENSITIVE);

  private static final List<String> TRANSACTION_WORDS =
      List.of("BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT");

  private SessionStatements() {}

  /** Whether {@code sql} runs snapshot expiry or file cleanup (comments and literals aside). */
  static boolean runsMaintenance(String sql) {
    return sql != null && MAINTENANCE.matcher(withoutCommentsAndLiterals(sql)).find();
  }

  /**
   * The statement's first keyword, upper case.
   *
   * @throws SQLException if {@code sql} holds more than one statement, or runs destructive
   *     maintenance; nothing was run
   */
  static String check(String sql) throws SQLException {
    if (sql == null) {
      throw new SQLException("the statement must not be null");
    }
    String code = withoutCommentsAndLiterals(sql);
    String[] parts = code.split(";", -1);
    int statements = 0;
    for (String p : parts) {
      if (!p.isBlank()) {
        statements++;
      }
    }
    if (statements > 1) {
      throw new SQLException(
          "a session runs one statement per call (use separate calls, and BEGIN ... COMMIT for"
              + " one snapshot): "
              + sql);
    }
    if (DESTRUCTIVE.matcher(code).find()) {
      throw new SQLException(
          "orphan deletion and CHECKPOINT delete files of the data path the session shares with"
              + " the lake that the lake may still need: run the lake's maintenance through"
              + " Catalog (startMaintenance, deleteOrphanedFiles) instead");
    }
    String s = code.strip();
    int end = 0;
    while (end < s.length() && Character.isLetter(s.charAt(end))) {
      end++;
    }
    return s.substring(0, end).toUpperCase(Locale.ROOT);
  }

  /** Whether {@code word} begins or ends a transaction. */
  static boolean controlsTransaction(String word) {
    return TRANSACTION_WORDS.contains(word);
  }

  /**
   * {@code sql} with comments removed and the contents of string literals and quoted identifiers
   * blanked, so that what is left is code: its semicolons separate statements and its words are
   * keywords and names.
   */
  static String withoutCommentsAndLiterals(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        while (i < sql.length() && sql.charAt(i) != '\n') {
          i++;
        }
        out.append(' ');
      } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? sql.length() : close + 2;
        out.append(' ');
      } else if (c == '\'' || c == '"') {
        // A doubled quote inside is the quote itself; either way the literal's text is blanked.
        out.append(c).append(c);
        i++;
        while (i < sql.length()) {
          if (sql.charAt(i) == c) {
            if (i + 1 < sql.length() && sql.charAt(i + 1) == c) {
              i += 2;
              continue;
            }
            i++;
            break;
          }
          i++;
        }
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
