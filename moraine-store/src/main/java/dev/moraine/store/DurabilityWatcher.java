package dev.moraine.store;

import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvOutcomeUnknownException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Completes the durability futures of one writer handle from one daemon thread, however many are
 * outstanding.
 *
 * <p><b>What guards what.</b> {@link #lock} guards {@link #pending} (futures by sequence number),
 * {@link #terminal}, {@link #finalDurable}, {@link #closing} and {@link #thread}. The thread never
 * completes a future while it holds the lock: it takes the futures out under the lock and completes
 * them after releasing it, so a dependent action that calls back into this watcher (or blocks)
 * cannot deadlock it.
 *
 * <p><b>The loop.</b> While futures are pending the thread asks the store, in short native waits,
 * for the durable sequence number to pass the last value it saw; each time it does, it completes
 * every pending future at or below it, lowest first. When nothing is pending it sleeps on the lock
 * until {@link #add} or {@link #storeClosed} wakes it. A fence, a failure or a close ends the loop:
 * the thread reads the store's final durable sequence number, completes the futures at or below it
 * normally and fails the rest with {@link KvOutcomeUnknownException}.
 *
 * <p><b>Why nothing is lost.</b> {@link #add} and the end of the loop both decide under the lock: a
 * future added before the end is in {@link #pending} when the thread drains it; one added after
 * sees {@link #terminal} and is decided at once against {@link #finalDurable}. The final durable
 * sequence number cannot grow after a fence, a fatal failure or a finished close, so deciding
 * against it is final.
 */
final class DurabilityWatcher {

  /** What the watcher needs from its store. */
  interface Source {
    /**
     * Waits at most {@code sliceMillis} for the durable sequence number to exceed {@code seen} and
     * returns it (unchanged if the slice passed first).
     *
     * @throws KvOutcomeUnknownException if the store was fenced, failed or closed
     * @throws KvClosedException if the handle was closed
     */
    long awaitDurableAbove(long seen, long sliceMillis);

    /** The durable sequence number once the store is dead or closed; may wait for the close. */
    long finalDurableSeqnum();
  }

  /** How long one native wait lasts; the loop looks for a closed handle between waits. */
  private static final long SLICE_MILLIS = 50;

  private final Source source;
  private final String threadName;
  private final Object lock = new Object();
  private final NavigableMap<Long, List<CompletableFuture<Void>>> pending = new TreeMap<>();
  private KvOutcomeUnknownException terminal;
  private long finalDurable;
  private boolean closing;
  private Thread thread;

  DurabilityWatcher(Source source, String threadName) {
    this.source = source;
    this.threadName = threadName;
  }

  /** A future completed once {@code seqnum} is durable, or failed with the outcome unknown. */
  CompletableFuture<Void> add(long seqnum) {
    CompletableFuture<Void> future = new CompletableFuture<>();
    KvOutcomeUnknownException failure;
    synchronized (lock) {
      if (terminal == null) {
        pending.computeIfAbsent(seqnum, s -> new ArrayList<>()).add(future);
        if (thread == null) {
          thread = new Thread(this::run, threadName);
          thread.setDaemon(true);
          thread.start();
        }
        lock.notifyAll();
        return future;
      }
      failure = seqnum <= finalDurable ? null : terminal;
    }
    // Decided already; completed on the caller's thread, outside the lock.
    if (failure == null) {
      future.complete(null);
    } else {
      future.completeExceptionally(failure);
    }
    return future;
  }

  /** Called once the store's close has finished: wakes an idle thread so that it ends. */
  void storeClosed() {
    synchronized (lock) {
      closing = true;
      lock.notifyAll();
    }
  }

  /** Futures still waiting, for tests. */
  int pendingCount() {
    synchronized (lock) {
      return pending.values().stream().mapToInt(List::size).sum();
    }
  }

  private void run() {
    long seen = -1;
    try {
      while (true) {
        synchronized (lock) {
          while (pending.isEmpty() && !closing) {
            lock.wait();
          }
        }
        long durable = source.awaitDurableAbove(seen, SLICE_MILLIS);
        if (durable > seen) {
          seen = durable;
          complete(takeUpTo(durable), null);
        }
      }
    } catch (KvOutcomeUnknownException dead) {
      finish(dead);
    } catch (KvClosedException closed) {
      finish(
          new KvOutcomeUnknownException(
              Reason.CLOSED, "the store closed before the write became durable", closed));
    } catch (InterruptedException | RuntimeException unexpected) {
      // Nothing else should end the loop; whatever did, the pending writes are undecided.
      finish(
          new KvOutcomeUnknownException(
              Reason.STORE_FAILURE, "the durability watcher stopped: " + unexpected, unexpected));
    }
  }

  /** Decides every pending future and every later one against the store's final durable seqnum. */
  private void finish(KvOutcomeUnknownException why) {
    long last = source.finalDurableSeqnum();
    List<CompletableFuture<Void>> durable;
    List<CompletableFuture<Void>> undecided;
    synchronized (lock) {
      terminal = why;
      finalDurable = last;
      durable = takeUpTo(last);
      undecided = takeUpTo(Long.MAX_VALUE);
    }
    complete(durable, null);
    complete(undecided, why);
  }

  /** Removes and returns the futures at or below {@code seqnum}, lowest first. */
  private List<CompletableFuture<Void>> takeUpTo(long seqnum) {
    synchronized (lock) {
      Map<Long, List<CompletableFuture<Void>>> head = pending.headMap(seqnum, true);
      List<CompletableFuture<Void>> out = new ArrayList<>();
      head.values().forEach(out::addAll);
      head.clear();
      return out;
    }
  }

  private static void complete(List<CompletableFuture<Void>> futures, Throwable failure) {
    for (CompletableFuture<Void> future : futures) {
      if (failure == null) {
        future.complete(null);
      } else {
        future.completeExceptionally(failure);
      }
    }
  }
}
