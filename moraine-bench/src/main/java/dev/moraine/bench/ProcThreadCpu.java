package dev.moraine.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of every thread of this process as Linux counts it ({@code /proc/self/task/<tid>/stat},
 * user + system, in clock ticks), so a run can be split by thread name, including the threads the
 * JVM does not know (the store's native runtime). Thread names are the kernel's, cut to 15
 * characters. Elsewhere than on Linux a reading is empty.
 */
final class ProcThreadCpu {
  /** Linux's {@code USER_HZ}: the unit of the times in {@code stat}, fixed by the kernel ABI. */
  private static final long TICKS_PER_SECOND = 100;

  private final Map<Long, String> names = new HashMap<>();
  private final Map<Long, Long> ticks = new HashMap<>();

  private ProcThreadCpu() {}

  /** The CPU ticks of every live thread now. */
  static ProcThreadCpu read() {
    ProcThreadCpu reading = new ProcThreadCpu();
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return reading;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
      for (Path dir : dirs) {
        String stat;
        try {
          stat = Files.readString(dir.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended between the listing and the read
        }
        // "tid (comm) state ppid ..." where comm may hold spaces and parentheses: it ends at the
        // last ')'. utime and stime are fields 14 and 15, i.e. the 12th and 13th after it.
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).trim().split(" ");
        long tid = Long.parseLong(dir.getFileName().toString());
        reading.names.put(tid, stat.substring(open + 1, close));
        reading.ticks.put(tid, Long.parseLong(rest[11]) + Long.parseLong(rest[12]));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc/self/task", e);
    }
    return reading;
  }

  /**
   * Microseconds per {@code commits} spent between {@code before} and this reading by the threads
   * whose kernel name starts with one of {@code prefixes}; threads that started meanwhile count
   * from zero.
   */
  double perCommitSince(ProcThreadCpu before, int commits, String... prefixes) {
    long spent = 0;
    for (Map.Entry<Long, Long> now : ticks.entrySet()) {
      String name = names.get(now.getKey());
      for (String prefix : prefixes) {
        if (name.startsWith(prefix)) {
          spent += now.getValue() - before.ticks.getOrDefault(now.getKey(), 0L);
          break;
        }
      }
    }
    return spent * 1e6 / TICKS_PER_SECOND / commits;
  }

  /**
   * Microseconds per {@code commits} spent between {@code before} and this reading, by thread name
   * with trailing digits folded ("GC Thread#0" and "GC Thread#1" count as "GC Thread#"), as {@code
   * name=us} pairs, largest first. Threads that started meanwhile count from zero.
   */
  String perCommitSince(ProcThreadCpu before, int commits) {
    Map<String, Long> byName = new TreeMap<>();
    for (Map.Entry<Long, Long> now : ticks.entrySet()) {
      long spent = now.getValue() - before.ticks.getOrDefault(now.getKey(), 0L);
      if (spent > 0) {
        String name = names.get(now.getKey()).replaceAll("[0-9]+$", "").replace(' ', '_');
        byName.merge(name, spent, Long::sum);
      }
    }
    StringBuilder out = new StringBuilder();
    byName.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(
            e ->
                out.append(out.length() == 0 ? "" : " ")
                    .append("thread[")
                    .append(e.getKey())
                    .append("]_us=")
                    .append(
                        String.format(
                            Locale.ROOT, "%.1f", e.getValue() * 1e6 / TICKS_PER_SECOND / commits)));
    return out.toString();
  }
}
