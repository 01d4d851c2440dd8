package dev.moraine.ducklake.conflict;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The outcome of {@link ConflictMatrix#check}: benign (the commit may be re-applied on top of the
 * concurrent commits) or a true conflict with the list of causes.
 *
 * @param causes why the commit conflicts; empty when benign
 */
public record ConflictVerdict(List<ConflictCause> causes) {
  private static final ConflictVerdict BENIGN = new ConflictVerdict(List.of());

  /** Copies the list. */
  public ConflictVerdict {
    causes = List.copyOf(causes);
  }

  /** The benign verdict. */
  public static ConflictVerdict benign() {
    return BENIGN;
  }

  /** Whether the commit may proceed on top of the concurrent commits. */
  public boolean isBenign() {
    return causes.isEmpty();
  }

  /** Whether the commit conflicts with a concurrent commit. */
  public boolean isConflict() {
    return !causes.isEmpty();
  }

  /** A one-paragraph description of all causes (empty string when benign). */
  public String describe() {
    return causes.stream().map(ConflictCause::detail).collect(Collectors.joining("; "));
  }
}
