package dev.moraine.ducklake.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable set of {@link ChangeEntry} values: the content of one {@code changes_made} text, or
 * the union of several.
 *
 * <p>Set semantics: duplicates collapse, and order does not matter for {@link #equals(Object)}.
 * {@link #entries()} iterates in DuckLake's writer order, the order {@link ChangesMade#emit} uses.
 */
public final class ChangeSet {
  private static final ChangeSet EMPTY = new ChangeSet(new TreeSet<>(WriterOrder.INSTANCE));

  private final SortedSet<ChangeEntry> entries;

  private ChangeSet(TreeSet<ChangeEntry> entries) {
    this.entries = Collections.unmodifiableSortedSet(entries);
  }

  /** The empty change set (what a SQL NULL {@code changes_made} means). */
  public static ChangeSet empty() {
    return EMPTY;
  }

  /** A set of the given entries. */
  public static ChangeSet of(ChangeEntry... entries) {
    return of(Arrays.asList(entries));
  }

  /** A set of the given entries. */
  public static ChangeSet of(Collection<? extends ChangeEntry> entries) {
    return builder().addAll(entries).build();
  }

  /** A builder for a new set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The entries in writer order; unmodifiable. */
  public SortedSet<ChangeEntry> entries() {
    return entries;
  }

  /** Whether the set has no entries. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The number of distinct entries. */
  public int size() {
    return entries.size();
  }

  /** Whether the set holds the given entry. */
  public boolean contains(ChangeEntry entry) {
    return entries.contains(entry);
  }

  /** The entries of one kind, in writer order. */
  public List<ChangeEntry> ofKind(ChangeKind kind) {
    List<ChangeEntry> out = new ArrayList<>();
    for (ChangeEntry e : entries) {
      if (e.kind() == kind) {
        out.add(e);
      }
    }
    return out;
  }

  /** Whether any entry has the given kind. */
  public boolean hasKind(ChangeKind kind) {
    for (ChangeEntry e : entries) {
      if (e.kind() == kind) {
        return true;
      }
    }
    return false;
  }

  /** Whether any entry is of a kind the parser did not recognise. */
  public boolean hasUnclassifiable() {
    return hasKind(ChangeKind.UNCLASSIFIABLE);
  }

  /** The union of this set and the others. */
  public ChangeSet union(ChangeSet... others) {
    return union(Arrays.asList(others));
  }

  /** The union of this set and the others. */
  public ChangeSet union(Collection<ChangeSet> others) {
    Builder b = builder().addAll(entries);
    for (ChangeSet other : others) {
      b.addAll(other.entries);
    }
    return b.build();
  }

  /** The union of all the given sets (empty for none). */
  public static ChangeSet unionOf(Collection<ChangeSet> sets) {
    return EMPTY.union(sets);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChangeSet other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  /**
   * The set as text, in the same format as {@code changes_made} (legacy and unknown kinds
   * included).
   */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("ChangeSet[");
    boolean first = true;
    for (ChangeEntry e : entries) {
      if (!first) {
        out.append(',');
      }
      out.append(e.raw());
      first = false;
    }
    return out.append(']').toString();
  }

  /** Accumulates entries for a {@link ChangeSet}. Not thread-safe. */
  public static final class Builder {
    private final TreeSet<ChangeEntry> entries = new TreeSet<>(WriterOrder.INSTANCE);

    private Builder() {}

    /** Adds one entry (a duplicate is ignored). */
    public Builder add(ChangeEntry entry) {
      entries.add(Objects.requireNonNull(entry, "entry"));
      return this;
    }

    /** Adds an id entry of the given kind. */
    public Builder add(ChangeKind kind, long id) {
      return add(new ChangeEntry.ById(kind, id));
    }

    /** Adds all entries. */
    public Builder addAll(Collection<? extends ChangeEntry> more) {
      for (ChangeEntry e : more) {
        add(e);
      }
      return this;
    }

    /** Adds all entries of another set. */
    public Builder addAll(ChangeSet other) {
      return addAll(other.entries());
    }

    /** The set built so far; the builder stays usable. */
    public ChangeSet build() {
      if (entries.isEmpty()) {
        return EMPTY;
      }
      return new ChangeSet(new TreeSet<>(entries));
    }
  }
}
