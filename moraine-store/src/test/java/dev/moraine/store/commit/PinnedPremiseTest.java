package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Every read a body makes is a read of its premise, whatever lands in the store meanwhile: the
 * premise reads through the batch's store transaction (RFC 0004 §4.1). A commit of another writer
 * that lands while the body runs is therefore invisible to it, and makes the batch lose the race
 * for the head; the body is then judged against it like any lost race.
 *
 * <p>The race is forced, not waited for: the body's first run lands a flush of the same inlined
 * rows through a second writer catalog on the same store, and waits for it.
 */
class PinnedPremiseTest {

  private static final InlineFlush TWO_ROWS =
      InlineFlush.of(NewDataFile.parquet("two.parquet", 2, 600, 400));

  /** CREATE TABLE t(a INTEGER, b VARCHAR) and two inlined rows: snapshots 1 and 2, table 1. */
  private static void tableWithTwoInlinedRows(CommitLake lake) {
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    lake.catalog.commit(
        tx ->
            tx.insertInlined(
                1, List.of(new ArrayList<>(List.of(1, "x")), new ArrayList<>(List.of(2, "y")))));
  }

  @Test
  void aFlushLandingWhileTheBodyRuns_isNotSeen_andTheSecondFlushConflicts() {
    try (CommitLake lake = new CommitLake()) {
      tableWithTwoInlinedRows(lake);
      List<Long> premises = new ArrayList<>();
      CommitConflictException conflict =
          assertThrows(
              CommitConflictException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        premises.add(tx.premise().snapshotId());
                        if (premises.size() == 1) {
                          // Land the competing flush now, through the other writer, and wait.
                          CompletableFuture.runAsync(
                                  () -> lake.rival().commit(o -> o.flushInlined(1, TWO_ROWS)))
                              .join();
                        }
                        // The rows are still inlined in this body's premise, drained or not.
                        assertEquals(2, tx.premise().inlinedRows(1).rows().size());
                        tx.flushInlined(1, TWO_ROWS);
                      }));
      // One run, on premise 2: the competing flush at 3 took the head, and two flushes of one
      // table's inlined rows conflict, as in stock DuckLake.
      assertEquals(List.of(2L), premises);
      assertTrue(conflict.getMessage().contains("conflict"), conflict.getMessage());
      assertEquals(3, lake.catalog.snapshot().snapshotId(), "only the competing flush landed");
    }
  }

  @Test
  void aRefusalWithTheHeadUnmovedReachesTheCallerAfterOneRun() {
    try (CommitLake lake = new CommitLake()) {
      tableWithTwoInlinedRows(lake);
      lake.catalog.commit(tx -> tx.flushInlined(1, TWO_ROWS));
      List<Long> premises = new ArrayList<>();
      InvalidArgumentException refused =
          assertThrows(
              InvalidArgumentException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        premises.add(tx.premise().snapshotId());
                        tx.flushInlined(1, TWO_ROWS);
                      }));
      assertEquals(List.of(3L), premises);
      assertTrue(refused.getMessage().contains("no inlined rows"), refused.getMessage());
      assertEquals(3, lake.catalog.snapshot().snapshotId());
    }
  }
}
