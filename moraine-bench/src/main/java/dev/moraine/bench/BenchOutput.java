package dev.moraine.bench;

import java.util.Arrays;
import java.util.Locale;

/** The {@code key=value} lines the harnesses print: figures and commit latency summaries. */
final class BenchOutput {
  private BenchOutput() {}

  /** The count, median, 99th percentile and maximum of {@code nanos}, in milliseconds. */
  static void latencies(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    print(name + "_commits", sorted.length);
    print(name + "_p50_ms", sorted[sorted.length / 2] / 1e6);
    print(
        name + "_p99_ms", sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1e6);
    print(name + "_max_ms", sorted[sorted.length - 1] / 1e6);
  }

  static void print(String key, double value) {
    System.out.println(String.format(Locale.ROOT, "%s=%.3f", key, value));
  }

  static void print(String key, long value) {
    System.out.println(key + "=" + value);
  }
}
