package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.duckdb.reference.CommitOutcome;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.reference.ReferenceSession;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One race of two commits from one premise, run on each side of a differential test: on stock
 * DuckLake as two sessions, on ours as two closures on two threads. The first always wins the head;
 * what the race tests compare is whether the second lands.
 */
final class CommitRace {
  /** What one session does inside its transaction, before either commits. */
  interface SessionWork {
    void run(ReferenceSession session) throws Exception;
  }

  /**
   * How our second commit ended: whether it landed, how often its closure ran, and the refusal's
   * text when it did not land.
   */
  /**
   * Our second commit's outcome: whether it landed, how often its closure ran, and the refusal (its
   * text and type; empty and null when it landed).
   */
  record Ours(boolean landed, int runs, String refusal, Class<?> refusalType) {}

  private CommitRace() {}

  /**
   * Stock DuckLake's race: both sessions begin, run their work (first, then second), then the first
   * commits and the second tries to. Asserts that a refused second was refused for a conflict and
   * that it was refused exactly when {@code conflicts}; returns its outcome.
   */
  static CommitOutcome onStock(
      ReferenceDuckLake stock, SessionWork first, SessionWork second, boolean conflicts)
      throws Exception {
    CommitOutcome stockSecond;
    try (ReferenceSession one = stock.session();
        ReferenceSession two = stock.session()) {
      one.begin();
      two.begin();
      first.run(one);
      second.run(two);
      one.commit();
      stockSecond = two.tryCommit();
    }
    if (!stockSecond.committed()) {
      assertTrue(stockSecond.isConflict(), "stock DuckLake failed otherwise: " + stockSecond);
    }
    assertEquals(conflicts, !stockSecond.committed(), "stock DuckLake's outcome");
    return stockSecond;
  }

  /**
   * {@link #onOurs}, with our outcome pinned: a second that lands ran twice (it lost the head once
   * and was re-run); a refused one is a {@link CommitConflictException} on its first run, or, when
   * {@code nameTaken} (two creations of one name, RFC 0004 §8.3 item 1), an {@link
   * AlreadyExistsException} from its re-run.
   */
  static Ours onOursPinned(
      PairedLakes lakes, CommitBody first, CommitBody second, boolean nameTaken) {
    Class<? extends MoraineException> refusal =
        nameTaken ? AlreadyExistsException.class : CommitConflictException.class;
    Ours ours = onOurs(lakes, first, second, List.of(refusal));
    if (ours.landed()) {
      assertEquals(2, ours.runs(), "a second that landed lost the head once and was re-run");
    } else {
      assertEquals(refusal, ours.refusalType(), ours.refusal());
      assertEquals(nameTaken ? 2 : 1, ours.runs(), "runs of the refused second");
    }
    return ours;
  }

  /**
   * Our race: the second closure's first run commits {@code first} through the lakes' second writer
   * catalog and waits for it, so the second loses the head and is re-run or refused. A refusal of
   * one of the {@code refusals} types counts as not landed; any other {@link MoraineException}
   * fails the test.
   */
  static Ours onOurs(
      PairedLakes lakes,
      CommitBody first,
      CommitBody second,
      List<Class<? extends MoraineException>> refusals) {
    AtomicInteger runs = new AtomicInteger();
    CommitBody racing =
        tx -> {
          int run = runs.incrementAndGet();
          second.run(tx);
          if (run == 1) {
            CompletableFuture.runAsync(() -> lakes.rival().commit(first)).join();
          }
        };
    try {
      lakes.catalog.commit(racing);
      return new Ours(true, runs.get(), "", null);
    } catch (MoraineException e) {
      if (refusals.stream().noneMatch(type -> type.isInstance(e))) {
        throw new AssertionError("refused for another reason: " + e, e);
      }
      return new Ours(false, runs.get(), e.toString(), e.getClass());
    }
  }
}
