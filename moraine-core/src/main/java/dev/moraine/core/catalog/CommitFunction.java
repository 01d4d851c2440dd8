package dev.moraine.core.catalog;

/**
 * A commit's body that also computes a value from the transaction, such as the id of the table it
 * creates (see {@link Catalog#commitReturning}).
 *
 * @param <T> the value's type
 */
@FunctionalInterface
public interface CommitFunction<T> {
  /** Applies this commit's verbs to {@code tx} and returns what the caller wants back. */
  T apply(Transaction tx);
}
