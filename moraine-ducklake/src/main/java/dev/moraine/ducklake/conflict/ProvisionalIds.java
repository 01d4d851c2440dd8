package dev.moraine.ducklake.conflict;

/**
 * The catalog ids a commit numbered for itself: every id at or above its premise's {@code
 * next_catalog_id}.
 *
 * <p>A commit that creates a table (or a view, a macro, a schema) and then inserts into it, alters
 * it or deletes from it names the new object by an id drawn from its premise's counter. A
 * concurrent commit drew from the same counter, so its own new objects carry the same numbers. The
 * two numbers name different objects: DuckLake itself keeps a transaction's new objects under
 * transaction-local ids while it checks for conflicts, and gives them their final ids only once the
 * commit is accepted. So an entry of this commit whose id is provisional is never matched by id
 * against a concurrent entry; its name-keyed entry ({@code created_table "s"."n"} and the like)
 * still is.
 *
 * <p>Ids compare unsigned, as DuckLake's {@code BIGINT} counters never go negative and our change
 * sets carry them as unsigned 64-bit values.
 *
 * @param firstProvisional the premise's {@code next_catalog_id}; ids at or above it are
 *     provisional. {@code -1} (the largest unsigned value) means none is.
 */
public record ProvisionalIds(long firstProvisional) {

  private static final ProvisionalIds NONE = new ProvisionalIds(-1L);

  /** No id is provisional: every id names an object that existed at the premise. */
  public static ProvisionalIds none() {
    return NONE;
  }

  /**
   * The ids a commit draws from a premise whose {@code next_catalog_id} is {@code nextCatalogId}.
   */
  public static ProvisionalIds from(long nextCatalogId) {
    return new ProvisionalIds(nextCatalogId);
  }

  /** Whether {@code id} was numbered by this commit rather than found at its premise. */
  public boolean contains(long id) {
    return firstProvisional != -1L && Long.compareUnsigned(id, firstProvisional) >= 0;
  }
}
