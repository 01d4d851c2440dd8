package dev.moraine.core.catalog;

/**
 * The body of a commit: the verbs to apply, called with the {@link Transaction} handle. It may run
 * more than once and must have no side effects outside the handle: when a concurrent commit wins
 * the race for the head without conflicting, the body runs again against the new head. What it
 * throws reaches the caller of {@link Catalog#commit} unchanged, and the commit then writes
 * nothing.
 */
@FunctionalInterface
public interface CommitBody {
  /** Applies this commit's verbs to {@code tx}. */
  void run(Transaction tx);
}
