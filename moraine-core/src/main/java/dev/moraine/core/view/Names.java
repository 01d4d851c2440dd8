package dev.moraine.core.view;

import dev.moraine.core.catalog.InvalidArgumentException;
import java.util.Locale;

/** Name rules of the verbs: what DuckLake and the lake's storage paths accept. */
public final class Names {
  private Names() {}

  /** Refuses a null or empty name. */
  public static void nonEmpty(String what, String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidArgumentException(what + " name must not be empty");
    }
  }

  /**
   * Refuses a name that cannot be a directory of the lake's storage path (a schema's or a table's
   * {@code path} is its name and a slash): empty, containing a slash or backslash, {@code .} or
   * {@code ..}.
   */
  public static void pathSafe(String what, String name) {
    nonEmpty(what, name);
    if (name.indexOf('/') >= 0
        || name.indexOf('\\') >= 0
        || name.equals(".")
        || name.equals("..")) {
      throw new InvalidArgumentException(
          what + " name '" + name + "' cannot be used in a storage path");
    }
  }

  /** Whether two catalog names are the same to DuckLake: ASCII case-insensitive. */
  public static boolean same(String a, String b) {
    return a.length() == b.length() && fold(a).equals(fold(b));
  }

  /**
   * The form a name is indexed under: two names that are {@link #same} fold to equal strings (the
   * converse needs the length check {@code same} adds, so a lookup by folded name re-checks).
   */
  public static String fold(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
