package dev.moraine.core.maintenance;

import java.time.Clock;
import java.time.Instant;

/** Instants as the keyspace stores them: microseconds since the epoch. */
final class Micros {
  private Micros() {}

  static long of(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000L);
  }

  static long now() {
    return of(Clock.systemUTC().instant());
  }

  static Instant toInstant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }
}
