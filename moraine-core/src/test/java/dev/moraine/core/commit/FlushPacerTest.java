package dev.moraine.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pacing rules, on a clock of plain numbers (nanoseconds; the spacing is 100 ms). */
class FlushPacerTest {
  private static final long MS = 1_000_000L;
  private static final long SPACING = 100 * MS;
  private static final long T0 = 5_000 * MS;

  /**
   * A pacer whose last flushes carried these populations, each started at its time and closed as
   * decided.
   */
  private static FlushPacer afterFlushes(long... weights) {
    FlushPacer pacer = new FlushPacer(SPACING);
    long t = T0 - weights.length * SPACING;
    for (long w : weights) {
      FlushPacer.Decision d = new FlushPacer.Decision(t, false);
      pacer.started(t, w, d);
      t += SPACING;
    }
    return pacer;
  }

  @Test
  void theFirstFlush_andAnySpacingOfZero_startAtOnce() {
    FlushPacer pacer = new FlushPacer(SPACING);
    assertEquals(T0, pacer.decide(T0, 1, false).at());
    FlushPacer zero = new FlushPacer(0);
    zero.started(T0, 50, new FlushPacer.Decision(T0, false));
    assertEquals(T0 + 1, zero.decide(T0 + 1, 1, true).at(), "a zero spacing never waits");
  }

  @Test
  void aLoneWriter_waitsOnlyTheFloor() {
    FlushPacer pacer = afterFlushes(1, 1, 1);
    long last = T0 - SPACING;
    // The last flush started at T0 - SPACING; a commit 2 ms later waits for the floor (10 ms).
    FlushPacer.Decision d = pacer.decide(last + 2 * MS, 1, false);
    assertEquals(last + 10 * MS, d.at());
    assertFalse(d.early());
    // Past the floor: at once.
    assertEquals(last + 30 * MS, pacer.decide(last + 30 * MS, 1, false).at());
  }

  @Test
  void aPopulation_waitsTheSpacing_orUntilItsMarkHasArrived_butNotBeforeTheFloor() {
    FlushPacer pacer = afterFlushes(8, 8, 8);
    long last = T0 - SPACING;
    assertEquals(8, pacer.mark());
    // Fewer than the mark: the spacing.
    assertEquals(last + SPACING, pacer.decide(last + 20 * MS, 5, false).at());
    // The mark has arrived: at once, an early close.
    FlushPacer.Decision early = pacer.decide(last + 20 * MS, 8, false);
    assertEquals(last + 20 * MS, early.at());
    assertTrue(early.early());
    // ... but never before the floor.
    assertEquals(last + 10 * MS, pacer.decide(last + 3 * MS, 8, false).at());
  }

  @Test
  void anEarlyClose_measuresNothing_soTheMarkDoesNotFall() {
    FlushPacer pacer = afterFlushes(8, 8, 8);
    long now = T0 - SPACING + 20 * MS;
    FlushPacer.Decision early = pacer.decide(now, 8, false);
    pacer.started(now, 8, early);
    assertEquals(8, pacer.mark());
    // Flushes that waited the spacing out and carried less lower it, a few in a row.
    long t = now;
    for (int i = 0; i < FlushPacer.HISTORY; i++) {
      t += SPACING;
      pacer.started(t, 2, pacer.decide(t, 2, false));
    }
    assertEquals(2, pacer.mark());
    for (int i = 0; i < FlushPacer.HISTORY; i++) {
      t += SPACING;
      pacer.started(t, 1, pacer.decide(t, 1, false));
    }
    assertEquals(1, pacer.mark(), "a writer left alone gets the lone rule back");
    assertEquals(t + 10 * MS, pacer.decide(t + MS, 1, false).at());
  }

  @Test
  void aMeasurementIsTrustedForTenSpacings_thenTheSpacingIsWaitedOutAgain() {
    FlushPacer pacer = afterFlushes(8);
    long measured = T0 - SPACING;
    long t = measured;
    // Early closes every half spacing: each one measures nothing, so the measurement ages.
    while (true) {
      t += SPACING / 2;
      FlushPacer.Decision d = pacer.decide(t, 8, false);
      if (t - measured <= FlushPacer.TRUST_SPACINGS * SPACING) {
        assertTrue(d.early(), "still trusted " + (t - measured) / MS + " ms after it");
        pacer.started(t, 8, d);
      } else {
        assertFalse(d.early(), "trusted " + (t - measured) / MS + " ms after it");
        assertEquals(t - SPACING / 2 + SPACING, d.at(), "waits the spacing out");
        break;
      }
    }
  }

  @Test
  void commitsThatArrivedWhileAFlushWasInTheAir_waitTheSpacingFromItsStart() {
    FlushPacer pacer = afterFlushes(1, 1, 1);
    long last = T0 - SPACING;
    assertEquals(last + SPACING, pacer.decide(last + 2 * MS, 1, true).at());
  }
}
