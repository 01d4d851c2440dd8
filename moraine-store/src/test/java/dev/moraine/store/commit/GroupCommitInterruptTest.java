package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.CommitInterruptedException;
import dev.moraine.core.catalog.CommitOutcomeUnknownException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.store.FaultInjector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A caller interrupted at each phase of its commit, and a catalog closed under pending commits:
 * before the commit reaches the store the caller leaves and nothing of it is written; after, the
 * caller is told the outcome is unknown at once and the batch goes on; nobody sharing its batch is
 * stranded, and a close answers every pending commit.
 */
class GroupCommitInterruptTest {

  /** What a caller thread's commit ended with, and whether its interrupt flag was set then. */
  private record Ending(Throwable thrown, Long landed, boolean flagSet) {}

  /** Runs {@code commit} on a thread of its own; the returned thread is started. */
  private static Thread caller(
      GroupLake lake, String schema, AtomicReference<Ending> ending, CountDownLatch waitInBody) {
    Thread t =
        new Thread(
            () -> {
              try {
                long id =
                    lake.catalog.commit(
                        tx -> {
                          tx.createSchema(schema);
                          if (waitInBody != null) {
                            try {
                              waitInBody.await();
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                          }
                        });
                ending.set(new Ending(null, id, Thread.currentThread().isInterrupted()));
              } catch (RuntimeException e) {
                ending.set(new Ending(e, null, Thread.currentThread().isInterrupted()));
              }
            },
            "caller-" + schema);
    t.start();
    return t;
  }

  private static Ending joined(Thread t, AtomicReference<Ending> ending)
      throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(20));
    assertFalse(t.isAlive(), t.getName() + " is still waiting");
    return ending.get();
  }

  @Test
  void interruptedWhileQueued_leaves_andTheBatchItWouldHaveJoinedLands() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      CountDownLatch release = lake.holdCommitThread();
      AtomicReference<Ending> ending = new AtomicReference<>();
      Thread queued = caller(lake, "queued", ending, null);
      Thread.sleep(200);
      queued.interrupt();
      Ending e = joined(queued, ending);
      assertInstanceOf(CommitInterruptedException.class, e.thrown());
      assertEquals(ErrorCode.INTERRUPTED, ((MoraineException) e.thrown()).code());
      assertTrue(e.flagSet(), "the interrupt flag stays set");
      release.countDown();
      long other = lake.catalog.commit(tx -> tx.createSchema("after"));
      assertTrue(lake.catalog.snapshotAt(other).schemaByName("queued").isEmpty());
      assertTrue(lake.catalog.snapshot().schemaByName("after").isPresent());
    }
  }

  @Test
  void interruptedWhileItsBodyRuns_leaves_andTheBatchIsStagedAgainWithoutIt() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      CountDownLatch inBody = new CountDownLatch(1);
      AtomicReference<Ending> staging = new AtomicReference<>();
      // Its body runs on the commit thread and waits there, after staging a schema.
      Thread first = caller(lake, "left", staging, inBody);
      Thread.sleep(200);
      AtomicReference<Ending> behind = new AtomicReference<>();
      Thread second = caller(lake, "stays", behind, null);
      Thread.sleep(200);
      first.interrupt();
      Ending left = joined(first, staging);
      assertInstanceOf(CommitInterruptedException.class, left.thrown(), "left at once");
      inBody.countDown();
      Ending stays = joined(second, behind);
      assertEquals(null, stays.thrown());
      assertEquals(before + 1, stays.landed(), "the one that left took no snapshot id");
      assertTrue(lake.catalog.snapshot().schemaByName("left").isEmpty(), "nothing of it landed");
      assertTrue(lake.catalog.snapshot().schemaByName("stays").isPresent());
    }
  }

  @Test
  void interruptedAfterSubmission_isUnknownAtOnce_andTheCommitStillLands() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      lake.injector.holdPuts(FaultInjector.WAL);
      AtomicReference<Ending> ending = new AtomicReference<>();
      Thread waiting = caller(lake, "submitted", ending, null);
      GroupLake.await("the commit applied", () -> lake.catalog.head().snapshotId() == before + 1);
      waiting.interrupt();
      Ending e = joined(waiting, ending);
      CommitOutcomeUnknownException unknown =
          assertInstanceOf(CommitOutcomeUnknownException.class, e.thrown());
      assertEquals(before + 1, unknown.attemptedSnapshotId().orElseThrow());
      assertTrue(e.flagSet());
      lake.injector.releasePuts();
      // The batch went on: the next commit lands after it, and a reopen shows both.
      long next = lake.catalog.commit(tx -> tx.createSchema("next"));
      assertEquals(before + 2, next);
      String dump = lake.reopenedDump();
      assertTrue(dump.contains("\"submitted\""), "the interrupted commit landed");
    }
  }

  @Test
  void interruptedWhilePublicationStalls_isUnknown_andTheMutationRunsOnce() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      lake.injector.holdPuts(FaultInjector.MANIFEST);
      AtomicInteger runs = new AtomicInteger();
      CompletableFuture<Long> stalled =
          CompletableFuture.supplyAsync(
              () ->
                  lake.catalog.commit(
                      tx -> {
                        runs.incrementAndGet();
                        tx.createSchema("stalled");
                      }));
      Thread.sleep(500);
      assertFalse(stalled.isDone(), "answered before its checkpoint was published");
      lake.injector.releasePuts();
      assertEquals(before + 1, stalled.get(20, TimeUnit.SECONDS));
      assertEquals(1, runs.get(), "a stalled publication never re-runs the mutation");

      lake.injector.holdPuts(FaultInjector.MANIFEST);
      AtomicReference<Ending> ending = new AtomicReference<>();
      Thread waiting = caller(lake, "publishing", ending, null);
      Thread.sleep(500);
      waiting.interrupt();
      Ending e = joined(waiting, ending);
      assertInstanceOf(CommitOutcomeUnknownException.class, e.thrown());
      lake.injector.releasePuts();
      GroupLake.await(
          "the interrupted commit answered by its batch",
          () -> lake.catalog.commitStatistics().commitsLanded() >= 2);
      assertTrue(lake.catalog.snapshot().schemaByName("publishing").isPresent());
    }
  }

  @Test
  void closing_answersEveryPendingCommit() throws Exception {
    try (GroupLake lake = new GroupLake()) {
      long before = lake.catalog.head().snapshotId();
      lake.injector.holdPuts(FaultInjector.WAL);
      AtomicReference<Ending> first = new AtomicReference<>();
      Thread written = caller(lake, "written", first, null);
      GroupLake.await("the commit applied", () -> lake.catalog.head().snapshotId() == before + 1);
      CountDownLatch inBody = new CountDownLatch(1);
      AtomicReference<Ending> second = new AtomicReference<>();
      Thread held = caller(lake, "held", second, inBody);
      Thread.sleep(200);
      AtomicReference<Ending> third = new AtomicReference<>();
      Thread queued = caller(lake, "queued", third, null);
      Thread.sleep(200);
      Thread closer = new Thread(lake.catalog::close, "closer");
      closer.start();
      Thread.sleep(200);
      // The queued commit is failed at once; nothing of it is written.
      assertInstanceOf(ClosedException.class, joined(queued, third).thrown());
      // The batch in hand and the batch awaiting its flush are finished.
      inBody.countDown();
      lake.injector.releasePuts();
      closer.join(TimeUnit.SECONDS.toMillis(30));
      assertFalse(closer.isAlive(), "close finished");
      assertEquals(before + 1, joined(written, first).landed());
      assertEquals(before + 2, joined(held, second).landed());
      String dump = lake.reopenedDump();
      assertTrue(dump.contains("\"written\"") && dump.contains("\"held\""));
      assertFalse(dump.contains("\"queued\""));
    }
  }
}
