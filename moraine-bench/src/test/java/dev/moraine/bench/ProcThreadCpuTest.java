package dev.moraine.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class ProcThreadCpuTest {
  @Test
  void cpuSpentOnANamedThreadIsCountedUnderItsName() throws InterruptedException {
    ProcThreadCpu before = ProcThreadCpu.read();
    long[] burned = new long[1];
    Thread[] holder = new Thread[1];
    // The burner must still exist when the second reading is taken, so it waits on a latch.
    java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    holder[0] =
        new Thread(
            () -> {
              long start = threads.getCurrentThreadCpuTime();
              long sink = 0;
              while (threads.getCurrentThreadCpuTime() - start < 300_000_000L) {
                for (int i = 0; i < 10_000; i++) {
                  sink += i * 31L ^ sink;
                }
              }
              burned[0] = threads.getCurrentThreadCpuTime() - start + (sink == 42 ? 1 : 0);
              done.countDown();
              try {
                read.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "burner-17");
    holder[0].start();
    done.await();
    ProcThreadCpu after = ProcThreadCpu.read();
    read.countDown();
    holder[0].join();

    double micros = after.perCommitSince(before, 1, "burner-");
    double burnedMicros = burned[0] / 1e3;
    // /proc counts in 10 ms ticks: within two ticks of what the thread measured itself.
    assertTrue(
        Math.abs(micros - burnedMicros) <= 20_000,
        "counted " + micros + " µs, the thread used " + burnedMicros + " µs");
    assertEquals(0.0, after.perCommitSince(before, 1, "no-such-thread"));
    // Per commit: three commits share the same time.
    assertEquals(micros / 3, after.perCommitSince(before, 3, "burner-"), 1e-6);
    // Trailing digits are folded out of the name in the split.
    String split = after.perCommitSince(before, 1);
    assertTrue(split.contains("thread[burner-]_us="), split);
  }
}
