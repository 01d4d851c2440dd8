package dev.moraine.core.commit;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How often and after what wait a commit that lost a benign race runs again (RFC 0004, "Conflict
 * resolution"): at most {@link #MAX_ATTEMPTS} attempts in all, the second after 2 ms, each later
 * one after twice the wait before it up to 50 ms, each wait plus up to 2 ms of jitter so that two
 * committers that just collided do not collide again in step. The first attempt never waits.
 */
final class RetryPolicy {
  /** How many attempts a commit gets before it reports an exhausted budget. */
  static final int MAX_ATTEMPTS = 10;

  private static final long BASE_MICROS = 2_000;
  private static final long CAP_MICROS = 50_000;

  private RetryPolicy() {}

  /** Whether a commit that has made {@code attempts} attempts may make another. */
  static boolean mayRetry(int attempts) {
    return attempts < MAX_ATTEMPTS;
  }

  /** The wait before the attempt that follows {@code attempts} failed ones (1 or more). */
  static long backoffMicros(int attempts) {
    long step = Math.min(CAP_MICROS, BASE_MICROS << Math.min(attempts - 1, 20));
    return step + ThreadLocalRandom.current().nextLong(BASE_MICROS);
  }
}
