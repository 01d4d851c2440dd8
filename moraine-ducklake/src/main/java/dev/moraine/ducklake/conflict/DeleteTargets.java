package dev.moraine.ducklake.conflict;

import java.util.Collection;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * File-level facts for DuckLake's delete-versus-delete check, supplied by the caller because a
 * {@code changes_made} text names tables, not files.
 *
 * <p>The check runs only when this commit and a concurrent one both carry {@code
 * deleted_from_table} for the same table. It then compares:
 *
 * <ul>
 *   <li>{@link #mine()}: the {@code data_file_id}s this commit's new delete files point at, plus
 *       the data files this commit ends outright (a delete that removes every row of a file);
 *   <li>{@link #theirs()}: the {@code data_file_id}s of every delete file whose {@code
 *       begin_snapshot} is after this commit's premise snapshot, plus every data file whose {@code
 *       end_snapshot} is after the premise (whatever ended it).
 * </ul>
 *
 * Any shared id is a true conflict. When the facts are not known, {@link #unknown()} makes the
 * check conservative: every same-table delete-versus-delete is a conflict.
 */
public final class DeleteTargets {
  private static final DeleteTargets UNKNOWN = new DeleteTargets(null, null);

  private final Set<Long> mine;
  private final Set<Long> theirs;

  private DeleteTargets(Set<Long> mine, Set<Long> theirs) {
    this.mine = mine;
    this.theirs = theirs;
  }

  /**
   * Known facts.
   *
   * @param mine data files this commit deletes from or ends
   * @param theirs data files deleted from or ended by snapshots after this commit's premise
   */
  public static DeleteTargets of(Collection<Long> mine, Collection<Long> theirs) {
    return new DeleteTargets(copy(mine), copy(theirs));
  }

  /** No facts: the delete-versus-delete check treats any same-table overlap as a conflict. */
  public static DeleteTargets unknown() {
    return UNKNOWN;
  }

  /** Whether the facts are known. */
  public boolean known() {
    return mine != null;
  }

  /** Data files this commit deletes from or ends; empty when unknown. */
  public Set<Long> mine() {
    return mine == null ? Set.of() : mine;
  }

  /** Data files deleted from or ended since the premise; empty when unknown. */
  public Set<Long> theirs() {
    return theirs == null ? Set.of() : theirs;
  }

  /**
   * The data files both sides touch, in ascending order, or empty if the facts are unknown (see
   * {@link #known()}).
   */
  public Optional<Set<Long>> overlap() {
    if (!known()) {
      return Optional.empty();
    }
    TreeSet<Long> shared = new TreeSet<>(mine);
    shared.retainAll(theirs);
    return Optional.of(Collections.unmodifiableSet(shared));
  }

  private static Set<Long> copy(Collection<Long> ids) {
    return Collections.unmodifiableSet(new TreeSet<>(ids));
  }

  @Override
  public String toString() {
    return known()
        ? "DeleteTargets[mine=" + mine + ", theirs=" + theirs + "]"
        : "DeleteTargets[unknown]";
  }
}
