package dev.moraine.store.soak;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.soak.SoakLake.Tables;
import dev.moraine.store.soak.SoakLake.Token;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The writer JVM of {@link ProcessKillSoakTest}: it opens the lake, prints {@code ready <head>},
 * and commits from many threads until it is killed, printing {@code ack <snapshot> <token>} for
 * each commit once {@code commit} (or {@code commitGroup}, for each member) has returned.
 *
 * <p>Each line goes to the standard output in one {@code write} call on the file descriptor, no
 * Java buffer in between, so a line the harness reads was written whole after its commit returned
 * (a write of a few bytes to a pipe is atomic; the harness ignores a last line without its newline
 * all the same). A committer that fails prints {@code failed <thread> <error>} and the process
 * exits with status 3, so that the harness reports the error rather than a kill.
 *
 * <p>Arguments: the lake's directory, the cycle, the number of committer threads, the flush spacing
 * in milliseconds and a seed for the choice between single commits and groups.
 */
public final class SoakWriter {
  private static final FileOutputStream OUT = new FileOutputStream(FileDescriptor.out);

  private SoakWriter() {}

  public static void main(String[] args) throws Exception {
    Path lake = Path.of(args[0]);
    int cycle = Integer.parseInt(args[1]);
    int threads = Integer.parseInt(args[2]);
    Duration spacing = Duration.ofMillis(Long.parseLong(args[3]));
    long seed = Long.parseLong(args[4]);
    KvStore store = SoakLake.provider(lake).openWriter();
    Catalog catalog = Catalog.open(store, SoakLake.options(spacing));
    Tables tables = SoakLake.tables(catalog);
    print("ready " + catalog.head().snapshotId());
    List<Thread> committers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      SplittableRandom random = new SplittableRandom(seed * 1_000_003L + thread);
      Thread committer =
          new Thread(
              () -> {
                try {
                  commitForEver(catalog, tables, cycle, thread, random);
                } catch (Throwable e) {
                  fail(thread, e);
                }
              },
              "soak-committer-" + thread);
      committers.add(committer);
    }
    committers.forEach(Thread::start);
    for (Thread committer : committers) {
      committer.join();
    }
  }

  /** Commits until the process dies: three single commits in four, else a group of 2 to 4. */
  private static void commitForEver(
      Catalog catalog, Tables tables, int cycle, int thread, SplittableRandom random)
      throws IOException {
    int seq = 0;
    while (true) {
      int size = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
      if (size == 1) {
        Token token = new Token(cycle, thread, seq);
        long snapshot = catalog.commit(SoakLake.body(tables, token, SoakLake.SINGLE));
        print("ack " + snapshot + " " + token.text());
      } else {
        String shape = SoakLake.groupShape(seq, size);
        List<CommitBody> bodies = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          bodies.add(SoakLake.body(tables, new Token(cycle, thread, seq + i), shape));
        }
        List<Long> snapshots = catalog.commitGroup(bodies);
        for (int i = 0; i < size; i++) {
          print("ack " + snapshots.get(i) + " " + new Token(cycle, thread, seq + i).text());
        }
      }
      seq += size;
    }
  }

  /** Writes one line in one call on the file descriptor; lines of two threads never interleave. */
  private static void print(String line) throws IOException {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.US_ASCII);
    synchronized (OUT) {
      OUT.write(bytes);
    }
  }

  private static void fail(int thread, Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    System.err.println("committer " + thread + " failed:\n" + trace);
    System.err.flush();
    try {
      print("failed " + thread + " " + String.valueOf(e).replace('\n', ' '));
    } catch (IOException ignored) {
      // The harness sees the exit status and the standard error.
    }
    Runtime.getRuntime().halt(3);
  }
}
