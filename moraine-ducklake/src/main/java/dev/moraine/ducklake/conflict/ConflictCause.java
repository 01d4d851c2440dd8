package dev.moraine.ducklake.conflict;

import dev.moraine.ducklake.changes.ChangeEntry;
import java.util.Objects;

/**
 * One reason a commit cannot be rebased: an entry of this commit against an entry of a concurrent
 * commit.
 *
 * @param mine the entry of this commit
 * @param theirs the entry of the concurrent commits that it collides with
 * @param rule which rule of the matrix fired
 * @param detail a human-readable explanation (mentions the word "conflict")
 */
public record ConflictCause(
    ChangeEntry mine, ChangeEntry theirs, ConflictRule rule, String detail) {
  /**
   * @throws NullPointerException if any part is null
   */
  public ConflictCause {
    Objects.requireNonNull(mine, "mine");
    Objects.requireNonNull(theirs, "theirs");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(detail, "detail");
  }
}
