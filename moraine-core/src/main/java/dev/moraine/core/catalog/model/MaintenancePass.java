package dev.moraine.core.catalog.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One maintenance pass as the catalog records it (RFC 0005 §5): when it started, what started it,
 * and one entry per step. The catalog keeps the 16 most recent passes, in the record the Rust
 * implementation keeps them in, so either implementation reads the other's.
 *
 * @param startedAt when the pass started, to the microsecond
 * @param trigger {@link #SCHEDULED} or {@link #MANUAL}
 * @param steps the steps in the order they ran
 */
public record MaintenancePass(Instant startedAt, String trigger, List<Step> steps) {
  /** A pass the catalog's maintenance schedule started. */
  public static final String SCHEDULED = "scheduled";

  /** A pass a host started with {@code runMaintenance}. */
  public static final String MANUAL = "manual";

  public MaintenancePass {
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(trigger, "trigger");
    steps = List.copyOf(steps);
  }

  /** The step called {@code name}, or null. */
  public Step step(String name) {
    for (Step s : steps) {
      if (s.step().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /**
   * One step of a pass.
   *
   * @param step its name: {@code expire}, {@code merge} or {@code cleanup}
   * @param status {@link #RAN}, {@link #SKIPPED} (not configured) or {@link #FAILED}
   * @param detail what it did, or why it failed
   */
  public record Step(String step, String status, String detail) {
    public static final String RAN = "ran";
    public static final String SKIPPED = "skipped";
    public static final String FAILED = "failed";

    public Step {
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(detail, "detail");
    }
  }
}
