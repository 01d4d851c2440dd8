package dev.moraine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs one piece of work on several threads at once, for the tests that race committers: every
 * thread waits on one latch, the latch opens once all are submitted, and the caller waits for all
 * of them. The pool is shut down whatever the outcome.
 */
public final class Concurrently {
  /** What one thread does, given its number (0 to threads - 1). */
  public interface Work {
    void run(int thread) throws Exception;
  }

  /** What one thread does and returns, given its number. */
  public interface Task<T> {
    T call(int thread) throws Exception;
  }

  private Concurrently() {}

  /**
   * Runs {@code work} on {@code threads} threads released together and waits for all of them.
   *
   * @throws ExecutionException the first failure, in thread order, of a thread's work; the pool is
   *     shut down then, and threads still running finish on their own
   */
  public static void run(int threads, Work work) throws InterruptedException, ExecutionException {
    results(
        threads,
        thread -> {
          work.run(thread);
          return null;
        });
  }

  /**
   * Runs {@code task} on {@code threads} threads released together and returns what each returned,
   * in thread order.
   *
   * @throws ExecutionException the first failure, in thread order, of a thread's task
   */
  public static <T> List<T> results(int threads, Task<T> task)
      throws InterruptedException, ExecutionException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      // Every thread parks on the latch, so all of them start their work at once.
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return task.call(thread);
                }));
      }
      start.countDown();
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdown();
    }
  }
}
