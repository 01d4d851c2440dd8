package dev.moraine.core.commit;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * When the next write-ahead-log flush starts: the flush pacing of the commit RFC ("Flush pacing")
 * under one setting, the spacing, read as the minimum time between the starts of two flushes. Every
 * flush is one object-store PUT, so the spacing caps the PUT rate a commit stream costs, and the
 * commits that arrive inside one spacing share one PUT.
 *
 * <p>The rules, for a flush of the commits pending now (each batch weighs its members):
 *
 * <ol>
 *   <li>No flush yet, a spacing of zero, or the spacing already elapsed since the last flush
 *       started: flush at once.
 *   <li>The population a recent flush measured ({@link #mark()}) has arrived: flush at once, but
 *       not before the <em>floor</em>, a tenth of the spacing after the last start, and only while
 *       that measurement is trusted (ten spacings). Waiting longer would coalesce nothing.
 *   <li>No recent flush carried more than one commit (the lone rule): flush at the floor. A writer
 *       without siblings pays a tenth of the spacing at most, and the commits right behind it still
 *       share its flush.
 *   <li>Otherwise, and for commits that arrived while a flush was in the air: flush when the
 *       spacing has elapsed since the last start.
 * </ol>
 *
 * <p>The mark is the largest population of the last {@link #HISTORY} flushes that were not closed
 * early: a flush that waited for its time carries every writer there is and so measures them, where
 * one closed at the mark carries only the mark and measures nothing. So the mark grows to the
 * population at once, and falls only after a few flushes in a row carried less, which is how a
 * writer left alone gets the lone rule back.
 *
 * <p>Not thread-safe: the one thread that flushes owns it. Times are {@link System#nanoTime()}
 * values.
 */
final class FlushPacer {
  /** How many measured flushes the mark remembers. */
  static final int HISTORY = 4;

  /** For how many spacings a measurement is trusted for an early close. */
  static final int TRUST_SPACINGS = 10;

  private final long spacing;
  private final long floor;
  private final Deque<Long> measured = new ArrayDeque<>();
  private boolean flushed;
  private long lastStart;
  private long lastMeasurement;

  FlushPacer(long spacingNanos) {
    if (spacingNanos < 0) {
      throw new IllegalArgumentException("the flush spacing must not be negative");
    }
    this.spacing = spacingNanos;
    this.floor = spacingNanos / 10;
  }

  /** When to start a flush, and whether starting then is an early close (rule 2). */
  record Decision(long at, boolean early) {}

  /**
   * When the flush of the commits pending at {@code now} starts.
   *
   * @param pendingWeight how many commits are pending (a batch counts its members)
   * @param arrivedInFlight whether the oldest of them arrived while the last flush was in the air
   *     (it could not ride that flush, and waits the spacing from its start)
   */
  Decision decide(long now, long pendingWeight, boolean arrivedInFlight) {
    if (spacing == 0 || !flushed) {
      return new Decision(now, false);
    }
    long due = lastStart + spacing;
    if (now - due >= 0) {
      return new Decision(now, false);
    }
    long floorAt = lastStart + floor;
    long mark = mark();
    boolean trusted = now - lastMeasurement <= (long) TRUST_SPACINGS * spacing;
    if (mark > 1 && trusted && pendingWeight >= mark) {
      return new Decision(Math.max(now, floorAt), true);
    }
    if (mark <= 1 && !arrivedInFlight) {
      return new Decision(Math.max(now, floorAt), false);
    }
    return new Decision(due, false);
  }

  /** A flush of {@code weight} commits starts at {@code now}, as {@code decision} said. */
  void started(long now, long weight, Decision decision) {
    flushed = true;
    lastStart = now;
    if (!decision.early()) {
      measured.addLast(weight);
      if (measured.size() > HISTORY) {
        measured.removeFirst();
      }
      lastMeasurement = now;
    }
  }

  /** The most commits one of the last measured flushes carried (0 before any). */
  long mark() {
    long max = 0;
    for (long w : measured) {
      max = Math.max(max, w);
    }
    return max;
  }

  /** The spacing, in nanoseconds. */
  long spacing() {
    return spacing;
  }
}
